// Simulated nodes (rocshmem-emu-run --nnodes K sets LOCAL_WORLD_SIZE = N/K): ROCSHMEM_TEAM_SHARED
// is this PE's node, rocshmem_ptr and raw views are null across nodes, a split of SHARED works,
// and RMA, atomics and collectives still reach every PE.
#include "emu_test.hpp"
#include "rocshmem_emu.h"

#include <cstdlib>

using namespace rocshmem;

int main() {
  const int me = emu_test::init();
  const int npes = rocshmem_n_pes();
  const char* local = getenv("LOCAL_WORLD_SIZE");
  EMU_CHECK(local != nullptr, "run through rocshmem-emu-run --nnodes");
  const int per_node = atoi(local);
  EMU_CHECK(per_node < npes, "this test needs more than one simulated node");
  const int node_start = me / per_node * per_node;

  // SHARED is my node.
  EMU_CHECK_EQ(rocshmem_team_n_pes(ROCSHMEM_TEAM_SHARED), per_node, "SHARED has the PEs of my node");
  EMU_CHECK_EQ(rocshmem_team_my_pe(ROCSHMEM_TEAM_SHARED), me - node_start, "my index in SHARED");
  EMU_CHECK_EQ(rocshmem_team_translate_pe(ROCSHMEM_TEAM_SHARED, 0, ROCSHMEM_TEAM_WORLD), node_start,
               "SHARED PE 0 is my node's first world PE");

  auto* v = static_cast<long*>(rocshmem_calloc(4, sizeof(long)));
  EMU_CHECK(v, "calloc");
  // rocshmem_ptr and raw views exist only on my node.
  for (int pe = 0; pe < npes; pe++) {
    const bool same = pe / per_node == me / per_node;
    void* p = rocshmem_ptr(v, pe);
    EMU_CHECK_EQ(p != nullptr, same, "rocshmem_ptr(v, " + std::to_string(pe) + ") is non-null only on my node");
    if (same) {
      EMU_CHECK(rocshmem_emu_view(p, sizeof(long)) != nullptr, "a view of a PE on my node");
    }
  }
  const int other_node_pe = (me + per_node) % npes;
  EMU_CHECK(rocshmem_ptr(v, other_node_pe) == nullptr, "no pointer into another node");

  // RMA and atomics across nodes.
  rocshmem_long_p(&v[0], 1000 + me, other_node_pe);
  rocshmem_long_atomic_add(&v[1], me + 1, 0);
  rocshmem_barrier_all();
  const int from = (me - per_node + npes) % npes;
  EMU_CHECK_EQ(v[0], long(1000 + from), "p from the PE one node back");
  if (me == 0) EMU_CHECK_EQ(v[1], long(npes) * (npes + 1) / 2, "atomic adds from every node");

  // Collectives on WORLD across nodes, and on SHARED (my node only).
  v[2] = me;
  rocshmem_barrier_all();
  EMU_CHECK_EQ(rocshmem_ctx_long_sum_reduce(ROCSHMEM_CTX_DEFAULT, ROCSHMEM_TEAM_WORLD, &v[3], &v[2], 1), 0, "reduce");
  EMU_CHECK_EQ(v[3], long(npes) * (npes - 1) / 2, "sum over WORLD");
  rocshmem_barrier_all();
  EMU_CHECK_EQ(rocshmem_ctx_long_sum_reduce(ROCSHMEM_CTX_DEFAULT, ROCSHMEM_TEAM_SHARED, &v[3], &v[2], 1), 0,
               "reduce on SHARED");
  long node_sum = 0;
  for (int i = 0; i < per_node; i++) node_sum += node_start + i;
  EMU_CHECK_EQ(v[3], node_sum, "sum over my node");

  // A split of SHARED: its first PE alone.
  rocshmem_team_t first = ROCSHMEM_TEAM_INVALID;
  EMU_CHECK_EQ(rocshmem_team_split_strided(ROCSHMEM_TEAM_SHARED, 0, 1, 1, nullptr, 0, &first), 0, "split SHARED");
  EMU_CHECK_EQ(first != ROCSHMEM_TEAM_INVALID, me == node_start, "only the node's first PE is in the split");
  if (first != ROCSHMEM_TEAM_INVALID) {
    EMU_CHECK_EQ(rocshmem_team_n_pes(first), 1, "split of SHARED has one PE");
    rocshmem_team_destroy(first);
  }
  rocshmem_barrier_all();
  rocshmem_free(v);
  emu_test::passed("simulated nodes: SHARED, rocshmem_ptr, split, RMA/atomics/collectives across nodes");
  rocshmem_finalize();
  return 0;
}
