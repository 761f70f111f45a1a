// rocshmem4py's subgroup pattern: 4 launched processes (RANK, WORLD_SIZE=4, LOCAL_WORLD_SIZE=4 from
// rocshmem-emu-run), of which launcher ranks 0 and 2 form a rocSHMEM world of 2 PEs with a unique id.
// The launcher's LOCAL_WORLD_SIZE=4 describes its job, not the rocSHMEM world: init must succeed
// (PE 0 warns once), both PEs share one node, and RMA, a barrier and a reduction work between them.
// Launcher ranks 1 and 3 never touch rocSHMEM.
#include "emu_test.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>

using namespace rocshmem;

namespace {

rocshmem_uniqueid_t share_uid(int group_rank, const std::string& path) {
  rocshmem_uniqueid_t uid{};
  if (group_rank == 0) {
    EMU_CHECK_EQ(rocshmem_get_uniqueid(&uid), 0, "rocshmem_get_uniqueid");
    const std::string tmp = path + ".tmp";
    {
      std::ofstream out(tmp, std::ios::binary);
      out.write(reinterpret_cast<const char*>(uid.data()), uid.size());
    }
    EMU_CHECK(std::rename(tmp.c_str(), path.c_str()) == 0, "publishing the unique id");
    return uid;
  }
  for (int i = 0; i < 15000; i++) {
    std::ifstream in(path, std::ios::binary);
    if (in && in.read(reinterpret_cast<char*>(uid.data()), uid.size())) return uid;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  emu_test::fail(__FILE__, __LINE__, "the unique id never appeared in " + path);
}

}  // namespace

int main() {
  const int launcher_rank = atoi(getenv("RANK"));
  if (launcher_rank % 2 == 1) return 0;  // outside the subgroup
  const int group_rank = launcher_rank / 2;
  const std::string path = std::string("/tmp/rocshmem-emu-subset-") + getenv("ROCSHMEM_EMU_JOB_ID") + ".uid";
  rocshmem_uniqueid_t uid = share_uid(group_rank, path);
  rocshmem_init_attr_t attr;
  EMU_CHECK_EQ(rocshmem_set_attr_uniqueid_args(group_rank, 2, &uid, &attr), 0, "set_attr_uniqueid_args");
  EMU_CHECK_EQ(rocshmem_init_attr(ROCSHMEM_INIT_WITH_UNIQUEID, &attr), 0, "init_attr on 2 of 4 launched processes");
  emu_test::my_pe_for_messages() = rocshmem_my_pe();
  if (group_rank == 0) std::remove(path.c_str());  // both joined
  EMU_CHECK_EQ(rocshmem_my_pe(), group_rank, "PE number from the unique-id attributes");
  EMU_CHECK_EQ(rocshmem_n_pes(), 2, "the rocSHMEM world is the subgroup");
  EMU_CHECK_EQ(rocshmem_team_n_pes(ROCSHMEM_TEAM_SHARED), 2, "both PEs on one node");
  int* v = static_cast<int*>(rocshmem_calloc(2, sizeof(int)));
  EMU_CHECK(v != nullptr, "calloc");
  EMU_CHECK(rocshmem_ptr(v, 1 - group_rank) != nullptr, "the peer is directly addressable (same node)");
  rocshmem_int_p(&v[0], 10 + group_rank, 1 - group_rank);
  rocshmem_barrier_all();
  EMU_CHECK_EQ(v[0], 10 + (1 - group_rank), "put from the other PE of the subgroup");
  v[1] = group_rank + 1;
  rocshmem_barrier_all();
  rocshmem_ctx_int_sum_reduce(ROCSHMEM_CTX_DEFAULT, ROCSHMEM_TEAM_WORLD, &v[0], &v[1], 1);
  EMU_CHECK_EQ(v[0], 3, "sum over the subgroup");
  rocshmem_free(v);
  rocshmem_finalize();
  if (group_rank == 0) printf("PASS subset init: 2 of 4 launched processes\n");
  return 0;
}
