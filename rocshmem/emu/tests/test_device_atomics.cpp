// rocSHMEM atomics from every work-item of several blocks on every PE: tickets from
// fetch_inc on PE 0 are unique and dense, fetch_add / add / inc totals are exact on every PE,
// fetch_or builds the full mask, compare_swap elects exactly one winner per slot.
#include "device/device_test.hpp"

#include <algorithm>
#include <string>
#include <vector>

using namespace rocshmem;
using device_test::device_alloc;
using device_test::symmetric_alloc;

namespace {

constexpr int kBlocks = 3, kThreads = 128, kN = kBlocks * kThreads, kSlots = 7;

__global__ void hammer(int64_t* ticket_counter, int64_t* tickets, long* sums, long* fetch_sums, unsigned long long* incs,
                       uint64_t* mask, int* slots, int* won, int npes, int me) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  tickets[i] = rocshmem_int64_atomic_fetch_inc(ticket_counter, 0);
  for (int pe = 0; pe < npes; ++pe) {
    rocshmem_ctx_long_atomic_add(ROCSHMEM_CTX_DEFAULT, sums, long(i + 1), pe);
    (void)rocshmem_long_atomic_fetch_add(fetch_sums, long(me + 1), pe);
    rocshmem_ulonglong_atomic_inc(incs, pe);
  }
  rocshmem_uint64_atomic_fetch_or(mask, uint64_t(1) << ((me * kN + i) % 64), 0);
  // Every work-item of every PE races for slot i % kSlots on PE 0; exactly one wins each.
  const int mine = me * kN + i + 1;
  if (rocshmem_int_atomic_compare_swap(&slots[i % kSlots], 0, mine, 0) == 0) won[i] = 1;
}

}  // namespace

int main() {
  const int me = emu_test::init();
  const int npes = rocshmem_n_pes();
  auto* counter = symmetric_alloc<int64_t>(1);
  auto* all_tickets = symmetric_alloc<int64_t>(size_t(npes) * kN);
  auto* sums = symmetric_alloc<long>(1);
  auto* fetch_sums = symmetric_alloc<long>(1);
  auto* incs = symmetric_alloc<unsigned long long>(1);
  auto* mask = symmetric_alloc<uint64_t>(1);
  auto* slots = symmetric_alloc<int>(kSlots);
  auto* winners = symmetric_alloc<int>(1);
  auto* tickets = device_alloc<int64_t>(kN);
  auto* won = device_alloc<int>(kN);
  rocshmem_barrier_all();

  DEVICE_LAUNCH_AND_SYNC(hammer, dim3(kBlocks), dim3(kThreads), counter, tickets, sums, fetch_sums, incs, mask, slots,
                         won, npes, me);
  const long total = long(npes) * kN;
  EMU_CHECK_EQ(*sums, long(npes) * kN * (kN + 1) / 2, "sum of atomic_add from every work-item of every PE");
  EMU_CHECK_EQ(*fetch_sums, long(kN) * npes * (npes + 1) / 2, "sum of atomic_fetch_add");
  EMU_CHECK_EQ(*incs, static_cast<unsigned long long>(total), "atomic_inc count");

  int my_wins = 0;
  for (int i = 0; i < kN; ++i) my_wins += won[i];
  rocshmem_int_atomic_add(winners, my_wins, 0);
  rocshmem_int64_put(all_tickets + size_t(me) * kN, tickets, kN, 0);
  rocshmem_barrier_all();
  if (me == 0) {
    EMU_CHECK_EQ(*counter, int64_t(total), "ticket counter on PE 0");
    std::vector<int64_t> sorted(all_tickets, all_tickets + total);
    std::sort(sorted.begin(), sorted.end());
    for (long t = 0; t < total; ++t) EMU_CHECK_EQ(sorted[t], int64_t(t), "tickets are unique and dense");
    EMU_CHECK_EQ(*mask, total >= 64 ? ~uint64_t(0) : (uint64_t(1) << total) - 1, "fetch_or mask");
    EMU_CHECK_EQ(*winners, kSlots, "one compare_swap winner per slot");
    for (int s = 0; s < kSlots; ++s) EMU_CHECK(slots[s] > 0 && slots[s] <= total, "slot " + std::to_string(s) + " claimed");
  }
  emu_test::passed("device atomics from every work-item: exact totals, unique tickets");
  rocshmem_barrier_all();
  HIP_CHECK(hipFree(won));
  HIP_CHECK(hipFree(tickets));
  rocshmem_free(winners);
  rocshmem_free(slots);
  rocshmem_free(mask);
  rocshmem_free(incs);
  rocshmem_free(fetch_sums);
  rocshmem_free(sums);
  rocshmem_free(all_tickets);
  rocshmem_free(counter);
  rocshmem_finalize();
  return 0;
}
