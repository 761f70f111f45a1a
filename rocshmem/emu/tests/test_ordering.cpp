// Ordering and read-your-own-writes under deferred completion (ROCSHMEM_EMU_COMPLETION), from the
// host and from kernels. EMU_TEST_SCENARIO selects:
//   reorder   PE 0 puts data, then a flag (no fence), to PE 1, R rounds; PE 1 waits for the flag and
//             reads the data: it must be stale in most rounds, as on a reordering network;
//   fence     the same with rocshmem_fence between the two puts: never stale;
//   ryow      a PE's get, g, atomic fetch, wait and test see its own unquieted puts (also after a
//             fence, as in SOS's micro_unit_shmem), while the target PE does not see them yet;
//   ipc-uid   under ROCSHMEM_EMU_PROFILE=ipc-uid, a kernel's RMA, atomics and put-with-signal work;
//             then PE 0's host rocshmem_int_p ends the job with the profile's message.
// PEs other than 0 and 1 only join the barriers.
#include "device/device_test.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace rocshmem;

namespace {

constexpr int kRounds = 200;
constexpr int kDeviceRounds = 200;

struct Shared {
  int data;
  int pad0[15];
  int flag;
  int pad1[15];
  int ack;
  int pad2[15];
  int x, y, z, w, v;
  int pad3[11];
  uint64_t signal;
  long counter;
};

Shared* s;
int me;

void reset() {
  rocshmem_barrier_all();
  memset(s, 0, sizeof *s);
  rocshmem_barrier_all();
}

// Host: returns how many of kRounds PE 1 saw the flag before the data (PE 1's count; 0 elsewhere).
int host_rounds(bool fence) {
  reset();
  int stale = 0;
  for (int r = 1; r <= kRounds; r++) {
    if (me == 0) {
      rocshmem_int_p(&s->data, r, 1);
      if (fence) rocshmem_fence();
      rocshmem_int_p(&s->flag, r, 1);
      rocshmem_int_wait_until(&s->ack, ROCSHMEM_CMP_EQ, r);
      rocshmem_quiet();
    } else if (me == 1) {
      rocshmem_int_wait_until(&s->flag, ROCSHMEM_CMP_EQ, r);
      const int seen = __atomic_load_n(&s->data, __ATOMIC_ACQUIRE);
      EMU_CHECK(seen == r || seen == r - 1, "data is this round's or the previous one's");
      stale += seen != r;
      rocshmem_int_p(&s->ack, r, 0);
      rocshmem_quiet();
    }
  }
  rocshmem_barrier_all();
  return stale;
}

__global__ void device_writer(Shared* sh, int rounds, int fence) {
  for (int r = 1; r <= rounds; r++) {
    rocshmem_int_p(&sh->data, r, 1);
    if (fence) rocshmem_fence();
    rocshmem_int_p(&sh->flag, r, 1);
    rocshmem_int_wait_until(&sh->ack, ROCSHMEM_CMP_EQ, r);
    rocshmem_quiet();
  }
}

__global__ void device_reader(Shared* sh, int rounds, int* stale) {
  for (int r = 1; r <= rounds; r++) {
    rocshmem_int_wait_until(&sh->flag, ROCSHMEM_CMP_EQ, r);
    if (__atomic_load_n(&sh->data, __ATOMIC_ACQUIRE) != r) ++*stale;
    rocshmem_int_p(&sh->ack, r, 0);
    rocshmem_quiet();
  }
}

int device_rounds(bool fence) {
  reset();
  int* stale = device_test::device_alloc<int>(1);
  if (me == 0) hipLaunchKernelGGL(device_writer, dim3(1), dim3(1), 0, 0, s, kDeviceRounds, fence ? 1 : 0);
  if (me == 1) hipLaunchKernelGGL(device_reader, dim3(1), dim3(1), 0, 0, s, kDeviceRounds, stale);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipDeviceSynchronize());
  rocshmem_barrier_all();
  const int result = *stale;
  HIP_CHECK(hipFree(stale));
  return result;
}

void ordering(bool fence) {
  const int host = host_rounds(fence);
  const int device = device_rounds(fence);
  if (me != 1) return;
  printf("PE 1: %s: stale data in %d of %d host rounds, %d of %d kernel rounds\n", fence ? "fence" : "no fence", host,
         kRounds, device, kDeviceRounds);
  if (fence) {
    EMU_CHECK_EQ(host, 0, "host: with fence the data is never stale");
    EMU_CHECK_EQ(device, 0, "kernel: with fence the data is never stale");
  } else {
    EMU_CHECK(host > kRounds / 2, "host: without fence the flag overtakes the data in most rounds");
    EMU_CHECK(device > kDeviceRounds / 2, "kernel: without fence the flag overtakes the data in most rounds");
  }
}

// PE 0 polls PE 1's ack without delivering anything of its own (test only looks at its ack).
void hold_until_ack(int value) {
  while (!rocshmem_int_test(&s->ack, ROCSHMEM_CMP_EQ, value)) {
  }
}

__global__ void device_ryow(Shared* sh, int* out) {
  rocshmem_int_p(&sh->z, 31, 1);
  out[0] = rocshmem_int_g(&sh->z, 1);
  rocshmem_int_p(&sh->w, 32, 1);
  out[1] = rocshmem_int_atomic_fetch(&sh->w, 1);
}

void ryow() {
  reset();
  if (me == 0) {
    // The other half first: PE 1 does not see PE 0's unquieted put (an atomic tells it to look).
    rocshmem_int_p(&s->y, 5, 1);
    rocshmem_int_atomic_set(&s->flag, 1, 1);
    hold_until_ack(1);
    EMU_CHECK_EQ(rocshmem_int_g(&s->y, 1), 5, "g after p to the same address (own write)");
    // SOS micro_unit_shmem: put, fence, get from the same address.
    int seven = 7, got = 0;
    rocshmem_int_put(&s->x, &seven, 1, 1);
    rocshmem_fence();
    rocshmem_int_get(&got, &s->x, 1, 1);
    EMU_CHECK_EQ(got, 7, "get after put and fence from the same address");
    rocshmem_int_p(&s->w, 3, 1);
    EMU_CHECK_EQ(rocshmem_int_atomic_fetch(&s->w, 1), 3, "atomic fetch after p to the same address");
    rocshmem_int_p(&s->v, 9, 0);  // to itself
    EMU_CHECK_EQ(rocshmem_int_test(&s->v, ROCSHMEM_CMP_EQ, 9), 1, "test after p to itself");
    rocshmem_int_p(&s->v, 10, 0);
    rocshmem_int_wait_until(&s->v, ROCSHMEM_CMP_EQ, 10);  // returns: it sees its own put
    EMU_CHECK_EQ(rocshmem_int_g(&s->v, 0), 10, "g of its own heap after p to itself");
    int* out = device_test::device_alloc<int>(2);
    hipLaunchKernelGGL(device_ryow, dim3(1), dim3(1), 0, 0, s, out);
    HIP_CHECK(hipDeviceSynchronize());
    EMU_CHECK_EQ(out[0], 31, "kernel: g after p to the same address");
    EMU_CHECK_EQ(out[1], 32, "kernel: atomic fetch after p to the same address");
    HIP_CHECK(hipFree(out));
    rocshmem_int_atomic_set(&s->flag, 2, 1);
    hold_until_ack(2);
  } else if (me == 1) {
    rocshmem_int_wait_until(&s->flag, ROCSHMEM_CMP_EQ, 1);
    EMU_CHECK_EQ(__atomic_load_n(&s->y, __ATOMIC_ACQUIRE), 0, "PE 1 must not see PE 0's unquieted put yet");
    rocshmem_int_atomic_set(&s->ack, 1, 0);
    rocshmem_int_wait_until(&s->flag, ROCSHMEM_CMP_EQ, 2);
    // PE 0's reads delivered what they overlapped; its put to itself stayed on PE 0.
    EMU_CHECK_EQ(__atomic_load_n(&s->y, __ATOMIC_ACQUIRE), 5, "delivered for PE 0's own read");
    EMU_CHECK_EQ(__atomic_load_n(&s->z, __ATOMIC_ACQUIRE), 31, "delivered for the kernel's own read");
    rocshmem_int_atomic_set(&s->ack, 2, 0);
  }
  rocshmem_barrier_all();
  if (me == 1) EMU_CHECK_EQ(s->x, 7, "after the barrier");
  emu_test::passed("read_your_own_writes");
}

__global__ void device_rma_under_ipc_uid(Shared* sh, int right) {
  rocshmem_int_p(&sh->data, 40 + right, right);
  rocshmem_long_atomic_inc(&sh->counter, right);
  rocshmem_int_atomic_fetch_add(&sh->x, 2, right);
  const int one = 1;
  rocshmem_putmem_signal(&sh->y, &one, sizeof one, &sh->signal, 1, ROCSHMEM_SIGNAL_ADD, right);
  rocshmem_quiet();
  rocshmem_barrier_all();
}

void ipc_uid() {
  const int n = rocshmem_n_pes(), right = (me + 1) % n;
  reset();
  hipLaunchKernelGGL(device_rma_under_ipc_uid, dim3(1), dim3(1), 0, 0, s, right);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipDeviceSynchronize());
  EMU_CHECK_EQ(__atomic_load_n(&s->data, __ATOMIC_ACQUIRE), 40 + me, "kernel int_p under ipc-uid");
  EMU_CHECK_EQ(__atomic_load_n(&s->counter, __ATOMIC_ACQUIRE), 1L, "kernel long atomic_inc under ipc-uid");
  EMU_CHECK_EQ(__atomic_load_n(&s->x, __ATOMIC_ACQUIRE), 2, "kernel int atomic_fetch_add under ipc-uid");
  EMU_CHECK_EQ(__atomic_load_n(&s->y, __ATOMIC_ACQUIRE), 1, "kernel putmem_signal data under ipc-uid");
  EMU_CHECK_EQ(__atomic_load_n(&s->signal, __ATOMIC_ACQUIRE), uint64_t(1), "kernel signal under ipc-uid");
  rocshmem_barrier_all();
  emu_test::passed("ipc_uid_device_rma");
  if (me == 0) rocshmem_int_p(&s->data, 1, right);  // the host form is still refused: ends the job
  rocshmem_barrier_all();
}

}  // namespace

int main() {
  me = emu_test::init();
  s = device_test::symmetric_alloc<Shared>(1);
  const char* v = getenv("EMU_TEST_SCENARIO");
  const std::string scenario = v ? v : "reorder";
  if (scenario == "ipc-uid") {
    ipc_uid();
  } else if (rocshmem_n_pes() >= 2) {
    if (scenario == "reorder") ordering(false);
    if (scenario == "fence") ordering(true);
    if (scenario == "ryow") ryow();
    emu_test::passed(scenario.c_str());
  }
  rocshmem_free(s);
  rocshmem_finalize();
  return 0;
}
