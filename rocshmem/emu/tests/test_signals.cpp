// Point-to-point synchronisation: wait_until / test families on the host, and the stream-ordered
// putmem_signal / signal_wait_until pair. Receivers read the data right after their wait returns,
// with no barrier in between, so the wait itself must order data before flag.
#include "emu_test.hpp"

#include <cstdint>
#include <vector>

using namespace rocshmem;

namespace {

int me, npes, right, left;

#define HIP_CHECK(call) EMU_CHECK_EQ((call), hipSuccess, #call)

int payload(int sender, int round, int i) { return sender * 100000 + round * 1000 + i; }

// Ping-pong rounds: data + fence + flag to the right, ack back to the left.
void test_flag_ordering() {
  const int n = 512, rounds = 40;
  auto* data = static_cast<int*>(rocshmem_calloc(n, sizeof(int)));
  auto* flag = static_cast<int*>(rocshmem_calloc(1, sizeof(int)));
  auto* ack = static_cast<int*>(rocshmem_calloc(1, sizeof(int)));
  EMU_CHECK(data && flag && ack, "rocshmem_calloc failed");
  rocshmem_barrier_all();
  std::vector<int> out(n);
  for (int r = 1; r <= rounds; ++r) {
    for (int i = 0; i < n; ++i) out[i] = payload(me, r, i);
    rocshmem_int_put(data, out.data(), n, right);
    rocshmem_fence();
    rocshmem_int_atomic_set(flag, r, right);

    rocshmem_int_wait_until(flag, ROCSHMEM_CMP_GE, r);
    for (int i = 0; i < n; ++i)
      EMU_CHECK_EQ(data[i], payload(left, r, i), "data after flag, round " + std::to_string(r));
    rocshmem_int_atomic_set(ack, r, left);  // left may overwrite my data now
    rocshmem_int_wait_until(ack, ROCSHMEM_CMP_EQ, r);
  }
  rocshmem_barrier_all();
  rocshmem_free(ack);
  rocshmem_free(flag);
  rocshmem_free(data);
  emu_test::passed("wait_until orders data before flag");
}

void test_test_family() {
  auto* v = static_cast<long*>(rocshmem_calloc(1, sizeof(long)));
  EMU_CHECK(v, "rocshmem_calloc failed");
  rocshmem_barrier_all();
  EMU_CHECK_EQ(rocshmem_long_test(v, ROCSHMEM_CMP_EQ, 42L), 0, "test EQ before the write");
  EMU_CHECK_EQ(rocshmem_long_test(v, ROCSHMEM_CMP_EQ, 0L), 1, "test EQ 0 before the write");
  rocshmem_barrier_all();
  rocshmem_long_p(v, 42L, right);
  rocshmem_barrier_all();
  EMU_CHECK_EQ(rocshmem_long_test(v, ROCSHMEM_CMP_EQ, 42L), 1, "test EQ after the write");
  EMU_CHECK_EQ(rocshmem_long_test(v, ROCSHMEM_CMP_NE, 42L), 0, "test NE");
  EMU_CHECK_EQ(rocshmem_long_test(v, ROCSHMEM_CMP_GT, 41L), 1, "test GT 41");
  EMU_CHECK_EQ(rocshmem_long_test(v, ROCSHMEM_CMP_GT, 42L), 0, "test GT 42");
  EMU_CHECK_EQ(rocshmem_long_test(v, ROCSHMEM_CMP_GE, 42L), 1, "test GE 42");
  EMU_CHECK_EQ(rocshmem_long_test(v, ROCSHMEM_CMP_LT, 43L), 1, "test LT 43");
  EMU_CHECK_EQ(rocshmem_long_test(v, ROCSHMEM_CMP_LT, 42L), 0, "test LT 42");
  EMU_CHECK_EQ(rocshmem_long_test(v, ROCSHMEM_CMP_LE, 41L), 0, "test LE 41");
  rocshmem_barrier_all();
  rocshmem_free(v);
  emu_test::passed("test family");
}

// Every PE sets its slot on every PE; the array forms then see a fully populated array.
void test_wait_until_arrays() {
  auto* ivars = static_cast<uint64_t*>(rocshmem_calloc(npes, sizeof(uint64_t)));
  EMU_CHECK(ivars, "rocshmem_calloc failed");
  rocshmem_barrier_all();
  for (int k = 1; k <= npes; ++k) {  // start with the right neighbour so waits really wait
    int pe = (me + k) % npes;
    rocshmem_uint64_atomic_set(&ivars[me], (uint64_t)me + 1, pe);
  }
  rocshmem_uint64_wait_until_all(ivars, npes, nullptr, ROCSHMEM_CMP_NE, 0);
  for (int p = 0; p < npes; ++p) EMU_CHECK_EQ(ivars[p], (uint64_t)p + 1, "slot after wait_until_all");

  std::vector<int> status(npes, 0);
  status[0] = 1;  // excluded from the some/any searches
  std::vector<size_t> indices(npes, 999);
  size_t found = rocshmem_uint64_wait_until_some(ivars, npes, indices.data(), status.data(),
                                                 ROCSHMEM_CMP_GT, 0);
  EMU_CHECK_EQ(found, (size_t)npes - 1, "wait_until_some count with slot 0 excluded");
  for (size_t i = 0; i < found; ++i) EMU_CHECK_EQ(indices[i], i + 1, "wait_until_some index");

  std::fill(status.begin(), status.end(), 1);
  status[npes - 1] = 0;  // only the last slot may be reported
  EMU_CHECK_EQ(rocshmem_uint64_wait_until_any(ivars, npes, status.data(), ROCSHMEM_CMP_EQ, (uint64_t)npes),
               (size_t)npes - 1, "wait_until_any picks the only eligible slot");

  std::vector<uint64_t> vals(npes);
  for (int p = 0; p < npes; ++p) vals[p] = p + 1;
  rocshmem_uint64_wait_until_all_vector(ivars, npes, nullptr, ROCSHMEM_CMP_EQ, vals.data());
  std::fill(status.begin(), status.end(), 0);
  vals[1] = 12345;  // slot 1 does not satisfy its own comparison value
  std::fill(indices.begin(), indices.end(), 999);
  found = rocshmem_uint64_wait_until_some_vector(ivars, npes, indices.data(), status.data(),
                                                 ROCSHMEM_CMP_EQ, vals.data());
  EMU_CHECK_EQ(found, (size_t)npes - 1, "wait_until_some_vector count");
  for (size_t i = 0; i < found; ++i) EMU_CHECK(indices[i] != 1, "slot 1 must not be reported");
  size_t any = rocshmem_uint64_wait_until_any_vector(ivars, npes, status.data(), ROCSHMEM_CMP_EQ, vals.data());
  EMU_CHECK(any != 1 && any < (size_t)npes, "wait_until_any_vector returned " + std::to_string(any));
  rocshmem_barrier_all();
  rocshmem_free(ivars);
  emu_test::passed("wait_until array forms");
}

// Stream-ordered: data + signal to the right; the right PE waits on its stream, then copies the
// data out on the same stream. SIGNAL_ADD from every PE sums up on PE 0.
void test_signal_on_stream() {
  const size_t n = 4096;
  hipStream_t stream;
  HIP_CHECK(hipStreamCreate(&stream));
  auto* dest = static_cast<int*>(rocshmem_calloc(n, sizeof(int)));
  auto* src = static_cast<int*>(rocshmem_malloc(n * sizeof(int)));
  auto* sig = static_cast<uint64_t*>(rocshmem_calloc(1, sizeof(uint64_t)));
  auto* slots = static_cast<int*>(rocshmem_calloc(npes, sizeof(int)));
  auto* sum_sig = static_cast<uint64_t*>(rocshmem_calloc(1, sizeof(uint64_t)));
  EMU_CHECK(dest && src && sig && slots && sum_sig, "rocshmem alloc failed");
  for (size_t i = 0; i < n; ++i) src[i] = payload(me, 7, (int)i);
  rocshmem_barrier_all();

  rocshmem_putmem_signal_on_stream(dest, src, n * sizeof(int), sig, 0xC0DE0000u + me,
                                   ROCSHMEM_SIGNAL_SET, right, stream);
  rocshmem_signal_wait_until_on_stream(sig, ROCSHMEM_CMP_EQ, 0xC0DE0000u + left, stream);
  std::vector<int> copy(n, -1);
  HIP_CHECK(hipMemcpyAsync(copy.data(), dest, n * sizeof(int), hipMemcpyDeviceToHost, stream));
  HIP_CHECK(hipStreamSynchronize(stream));
  for (size_t i = 0; i < n; ++i)
    EMU_CHECK_EQ(copy[i], payload(left, 7, (int)i), "data copied after signal_wait_until_on_stream");
  EMU_CHECK_EQ(*sig, 0xC0DE0000u + left, "signal word after SIGNAL_SET");

  src[0] = 1000 + me;
  rocshmem_putmem_signal_on_stream(&slots[me], src, sizeof(int), sum_sig, 1, ROCSHMEM_SIGNAL_ADD, 0, stream);
  if (me == 0) rocshmem_signal_wait_until_on_stream(sum_sig, ROCSHMEM_CMP_EQ, (uint64_t)npes, stream);
  HIP_CHECK(hipStreamSynchronize(stream));
  if (me == 0) {
    EMU_CHECK_EQ(*sum_sig, (uint64_t)npes, "SIGNAL_ADD total");
    for (int p = 0; p < npes; ++p) EMU_CHECK_EQ(slots[p], 1000 + p, "slot written with SIGNAL_ADD");
  }
  rocshmem_barrier_all();
  HIP_CHECK(hipStreamDestroy(stream));
  rocshmem_free(sum_sig);
  rocshmem_free(slots);
  rocshmem_free(sig);
  rocshmem_free(src);
  rocshmem_free(dest);
  emu_test::passed("putmem_signal_on_stream + signal_wait_until_on_stream");
}

}  // namespace

int main() {
  std::tie(me, npes, right, left) = emu_test::init_ring();
  test_flag_ordering();
  test_test_family();
  test_wait_until_arrays();
  test_signal_on_stream();
  rocshmem_finalize();
  return 0;
}
