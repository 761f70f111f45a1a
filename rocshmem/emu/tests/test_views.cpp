// Raw views (rocshmem_emu_view, what Java's SymmetricBuffer.as*Pointer/asByteBuffer hand out):
// they alias the block while it lives, work as symmetric addresses in rocSHMEM calls, and after
// rocshmem_free can no longer reach the block, not even once a later allocation reuses it.
#include "emu_test.hpp"

#include <rocshmem_emu.h>

#include <cstring>

using namespace rocshmem;

namespace {

int me, npes, right, left;

void test_view_aliases_the_block() {
  auto* block = static_cast<int*>(rocshmem_calloc(1024, sizeof(int)));
  EMU_CHECK(block, "calloc");
  auto* view = static_cast<int*>(rocshmem_emu_view(block, 1024 * sizeof(int)));
  EMU_CHECK(view, std::string("rocshmem_emu_view: ") + rocshmem_emu_last_error());
  EMU_CHECK(view != block, "a view has an address of its own");
  view[5] = 1000 + me;
  EMU_CHECK_EQ(block[5], 1000 + me, "a store through the view reaches the block");
  block[6] = 2000 + me;
  EMU_CHECK_EQ(view[6], 2000 + me, "the view sees stores to the block");

  // A view of this PE's heap is a symmetric address: put into the right neighbour through it.
  int value = 3000 + me;
  rocshmem_int_put(view + 7, &value, 1, right);
  rocshmem_barrier_all();
  EMU_CHECK_EQ(block[7], 3000 + left, "put through a view as the symmetric destination");

  // A view of a peer's copy (through rocshmem_ptr) writes into that peer's block.
  auto* peer = static_cast<int*>(rocshmem_ptr(block, right));
  auto* peer_view = static_cast<int*>(rocshmem_emu_view(peer, 1024 * sizeof(int)));
  EMU_CHECK(peer_view, std::string("view of a peer block: ") + rocshmem_emu_last_error());
  peer_view[8] = 4000 + me;
  rocshmem_barrier_all();
  EMU_CHECK_EQ(block[8], 4000 + left, "store through a view of the peer's copy");

  rocshmem_free(block);
  // The block is gone: the views read zeros and their stores go nowhere...
  EMU_CHECK_EQ(view[5], 0, "a view of a freed block reads scratch");
  view[100] = 77;
  peer_view[101] = 78;
  // ...and a later allocation at the same offset never sees them.
  auto* reused = static_cast<int*>(rocshmem_calloc(1024, sizeof(int)));
  EMU_CHECK(reused == block, "the allocator reuses the freed offset (precondition of this test)");
  view[102] = 79;
  peer_view[103] = 80;
  rocshmem_barrier_all();
  for (int i : {100, 101, 102, 103}) EMU_CHECK_EQ(reused[i], 0, "a stale view reached a later allocation");
  // A stale view is no longer a symmetric address: rocSHMEM refuses it instead of writing.
  EMU_CHECK(rocshmem_ptr(view, me) == nullptr, "rocshmem_ptr of a stale view");
  rocshmem_free(reused);
  emu_test::passed("views alias their block and die with it");
}

void test_bad_views_are_refused() {
  int local = 0;
  EMU_CHECK(rocshmem_emu_view(&local, sizeof local) == nullptr, "a view of non-symmetric memory");
  EMU_CHECK(strstr(rocshmem_emu_last_error(), "not inside a symmetric heap") != nullptr, rocshmem_emu_last_error());
  EMU_CHECK(rocshmem_emu_max_alignment() >= 4096, "max alignment");
  emu_test::passed("bad views refused");
}

}  // namespace

int main() {
  std::tie(me, npes, right, left) = emu_test::init_ring();
  test_view_aliases_the_block();
  test_bad_views_are_refused();
  auto* last = static_cast<long*>(rocshmem_malloc(sizeof(long)));
  auto* view = static_cast<long*>(rocshmem_emu_view(last, sizeof(long)));
  EMU_CHECK(view, "view");
  rocshmem_finalize();
  // After finalize every view is scratch: reading it must not fault.
  EMU_CHECK_EQ(*view, 0L, "a view after finalize reads scratch");
  return 0;
}
