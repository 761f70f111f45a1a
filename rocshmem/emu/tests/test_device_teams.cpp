// Teams are distinct objects: one kernel whose work-groups each run collectives on their own
// duplicate of ROCSHMEM_TEAM_WORLD (as AMD's functional tester and rocSHMEM 3.x's team tests do),
// with 2, 16 and 32 work-groups. Each work-group is blocked in a collective of its own team while the
// others are in theirs; none of that is a mismatch, and every result is checked: sync, barrier,
// alltoall, fcollect and a sum reduction per team.
#include "device/device_test.hpp"

#include <string>
#include <vector>

using namespace rocshmem;
using device_test::device_alloc;
using device_test::symmetric_alloc;

namespace {

constexpr int kN = 2;  // elements per PE and work-group
constexpr int kThreads = 64;

__global__ void collectives_per_block(const rocshmem_team_t* teams, int n, int* a2a_dst, const int* a2a_src,
                                      int* fc_dst, const int* fc_src, int* red_dst, const int* red_src,
                                      int* status) {
  const int b = blockIdx.x;
  const rocshmem_team_t team = teams[b];
  rocshmem_ctx_sync_wg(ROCSHMEM_CTX_DEFAULT, team);
  rocshmem_ctx_barrier_wg(ROCSHMEM_CTX_DEFAULT, team);
  rocshmem_int_alltoall_wg(team, a2a_dst + b * n * kN, a2a_src + b * n * kN, kN);
  rocshmem_ctx_int_fcollect_wg(ROCSHMEM_CTX_DEFAULT, team, fc_dst + b * n * kN, fc_src + b * kN, kN);
  const int reduced = rocshmem_ctx_int_sum_reduce_wg(ROCSHMEM_CTX_DEFAULT, team, red_dst + b * kN, red_src + b * kN, kN);
  rocshmem_ctx_sync_wg(ROCSHMEM_CTX_DEFAULT, team);
  if (threadIdx.x == 0) status[b] = reduced;
}

void run(int blocks) {
  const int me = rocshmem_my_pe(), n = rocshmem_n_pes();
  auto* teams = device_alloc<rocshmem_team_t>(blocks);
  for (int b = 0; b < blocks; b++) {
    const int rc = rocshmem_team_split_strided(ROCSHMEM_TEAM_WORLD, 0, 1, n, nullptr, 0, &teams[b]);
    EMU_CHECK_EQ(rc, 0, "duplicate of WORLD " + std::to_string(b));
  }
  int* a2a_src = symmetric_alloc<int>(size_t(blocks) * n * kN);
  int* a2a_dst = symmetric_alloc<int>(size_t(blocks) * n * kN);
  int* fc_src = symmetric_alloc<int>(size_t(blocks) * kN);
  int* fc_dst = symmetric_alloc<int>(size_t(blocks) * n * kN);
  int* red_src = symmetric_alloc<int>(size_t(blocks) * kN);
  int* red_dst = symmetric_alloc<int>(size_t(blocks) * kN);
  int* status = device_alloc<int>(blocks);
  for (int b = 0; b < blocks; b++) {
    for (int j = 0; j < n; j++)
      for (int k = 0; k < kN; k++) a2a_src[(b * n + j) * kN + k] = me * 100000 + j * 1000 + b * 10 + k;
    for (int k = 0; k < kN; k++) {
      fc_src[b * kN + k] = me * 1000 + b * 10 + k;
      red_src[b * kN + k] = me + b * 10 + k;
    }
    status[b] = -1;
  }
  rocshmem_barrier_all();
  DEVICE_LAUNCH_AND_SYNC(collectives_per_block, dim3(blocks), dim3(kThreads), teams, n, a2a_dst, a2a_src, fc_dst,
                         fc_src, red_dst, red_src, status);
  const std::string where = std::to_string(blocks) + " work-groups, block ";
  for (int b = 0; b < blocks; b++) {
    EMU_CHECK_EQ(status[b], 0, where + std::to_string(b) + ": reduce status");
    for (int j = 0; j < n; j++)
      for (int k = 0; k < kN; k++) {
        EMU_CHECK_EQ(a2a_dst[(b * n + j) * kN + k], j * 100000 + me * 1000 + b * 10 + k,
                     where + std::to_string(b) + ": alltoall from PE " + std::to_string(j));
        EMU_CHECK_EQ(fc_dst[(b * n + j) * kN + k], j * 1000 + b * 10 + k,
                     where + std::to_string(b) + ": fcollect from PE " + std::to_string(j));
      }
    for (int k = 0; k < kN; k++)
      EMU_CHECK_EQ(red_dst[b * kN + k], n * (n - 1) / 2 + n * (b * 10 + k), where + std::to_string(b) + ": sum");
  }
  for (int b = 0; b < blocks; b++) rocshmem_team_destroy(teams[b]);
  for (int* p : {a2a_src, a2a_dst, fc_src, fc_dst, red_src, red_dst}) rocshmem_free(p);
  HIP_CHECK(hipFree(status));
  HIP_CHECK(hipFree(teams));
  emu_test::passed(("collectives on a duplicate of WORLD per work-group, " + std::to_string(blocks) + " work-groups").c_str());
}

}  // namespace

int main() {
  emu_test::init();
  for (int blocks : {2, 16, 32}) run(blocks);
  rocshmem_finalize();
  return 0;
}
