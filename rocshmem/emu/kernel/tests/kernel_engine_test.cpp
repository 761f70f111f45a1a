// Tests of the kernel engine: kernels of this program (hipLaunchKernelGGL) and of a code object
// (hipModuleLoad), checked against serial results; faults and launches that can never complete
// run in a child process whose exit status and message are checked.
// Usage: kernel_engine_test <case> <module.emuco>
#undef NDEBUG  // the assert case needs device assert (CMake's release flags define NDEBUG)
#include <hip/hip_runtime.h>
#include <rocshmem_emu_workitem.h>

#include <setjmp.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <vector>

#define CHECK(cond, ...)                                              \
  do {                                                                \
    if (!(cond)) {                                                    \
      fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                   \
      fprintf(stderr, "\n");                                          \
      exit(1);                                                        \
    }                                                                 \
  } while (0)
#define CHECK_DEVICE(cond) \
  do {                     \
    if (!(cond)) rocshmem_emu_wi_fault("device check failed: " #cond); \
  } while (0)
#define HIP_OK(call)                                                                 \
  do {                                                                               \
    hipError_t status_ = (call);                                                     \
    CHECK(status_ == hipSuccess, "%s returned %s", #call, hipGetErrorName(status_)); \
  } while (0)
#define HIP_EXPECT(expected, call)                                                       \
  do {                                                                                   \
    hipError_t status_ = (call);                                                         \
    CHECK(status_ == (expected), "%s returned %s, expected %s", #call,                   \
          hipGetErrorName(status_), hipGetErrorName(expected));                          \
  } while (0)

static const char* g_module_path;

// The launches' wavefront size (ROCSHMEM_EMU_WAVE_SIZE): the tests run at 64 and at 32.
static int wave_size() {
  hipDeviceProp_t prop;
  if (hipGetDeviceProperties(&prop, 0) != hipSuccess) return 0;
  return prop.warpSize;
}

template <class T>
static T* device_array(size_t n, int fill_byte = 0) {
  T* p = nullptr;
  HIP_OK(hipMalloc(&p, n * sizeof(T)));
  HIP_OK(hipMemset(p, fill_byte, n * sizeof(T)));
  return p;
}

template <class T>
static std::vector<T> to_host(const T* device, size_t n) {
  std::vector<T> host(n);
  HIP_OK(hipMemcpy(host.data(), device, n * sizeof(T), hipMemcpyDeviceToHost));
  return host;
}

// ---- kernels ------------------------------------------------------------------------------------

__global__ void add_one(int* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += 1;
}

// Static __shared__ per block, __syncthreads between phases: a rotation within each block.
__global__ void rotate_in_block(const int* in, int* out, int shift) {
  __shared__ int tile[512];
  const unsigned t = threadIdx.x, n = blockDim.x, base = blockIdx.x * n;
  tile[t] = in[base + t];
  __syncthreads();
  int rotated = tile[(t + shift) % n];
  __syncthreads();
  tile[t] = rotated * 2;  // a second phase over the same array
  __syncthreads();
  out[base + t] = tile[(t + 1) % n];
}

struct ShuffleOut {
  int direct, up, down, xored, narrow;
  double as_double;
  int wave_sum;
};

__global__ void shuffles(ShuffleOut* out) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % warpSize;
  const int v = gid * 3 + 1;
  ShuffleOut r;
  r.direct = __shfl(v, (lane + 5) % 64);
  r.up = __shfl_up(v, 3);
  r.down = __shfl_down(v, 7);
  r.xored = __shfl_xor(v, 13);
  r.narrow = __shfl(v, 2, 16);
  r.as_double = __shfl(v * 0.5, 63 - lane);
  int sum = v;
  for (int offset = warpSize / 2; offset > 0; offset /= 2) sum += __shfl_down(sum, offset);
  r.wave_sum = __shfl(sum, 0);
  out[gid] = r;
}

struct VoteOut {
  unsigned long long ballot, active;
  int any_five, all_true, all_pred;
};

__global__ void votes(VoteOut* out) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % warpSize;
  VoteOut r;
  r.ballot = __ballot(gid % 3 == 0);
  r.active = __activemask();
  r.any_five = __any(lane == 5);
  r.all_true = __all(1);
  r.all_pred = __all(gid % 2 == 0);
  out[gid] = r;
}

struct AtomicTotals {
  int count;
  unsigned long long id_sum;
  float float_count;
  double double_halves;
  unsigned max_id;
  long long min_signed;
  unsigned or_bits;
  unsigned xor_bits;
  unsigned wrap;
  unsigned cas_count;
  unsigned long down;
  int exchanged;
};

__global__ void atomics_everywhere(AtomicTotals* totals, unsigned* block_sums) {
  __shared__ unsigned block_total;
  __shared__ unsigned block_max;
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) block_total = 0, block_max = 0;
  __syncthreads();
  atomicAdd(&block_total, threadIdx.x);
  atomicMax(&block_max, threadIdx.x);
  atomicAdd(&totals->count, 1);
  atomicAdd(&totals->id_sum, static_cast<unsigned long long>(gid));
  atomicAdd(&totals->float_count, 1.0f);
  atomicAdd(&totals->double_halves, 0.5);
  atomicMax(&totals->max_id, gid);
  atomicMin(&totals->min_signed, -static_cast<long long>(gid));
  atomicOr(&totals->or_bits, 1u << (gid % 32));
  atomicXor(&totals->xor_bits, 1u << (gid % 4));
  atomicInc(&totals->wrap, 99);  // counts modulo 100
  unsigned old = totals->cas_count, seen;
  while ((seen = atomicCAS(&totals->cas_count, old, old + 1)) != old) old = seen;
  atomicSub(&totals->down, 1ul);
  atomicExch(&totals->exchanged, 7);
  __syncthreads();
  if (threadIdx.x == 0) block_sums[blockIdx.x] = block_total + block_max;
}

// Block b waits for block b+1 (the last one starts): blocks of one launch depend on each other.
__global__ void wait_chain(int* flags, int* order, int* position) {
  const int b = blockIdx.x;
  if (threadIdx.x == 0) {
    if (b + 1 < static_cast<int>(gridDim.x)) {
      while (atomicAdd(&flags[b + 1], 0) == 0) rocshmem_emu_wi_yield();  // a yielding wait
    }
    order[atomicAdd(position, 1)] = b;
    __threadfence();
    atomicExch(&flags[b], 1);
  }
  __syncthreads();
}

__global__ void null_write(int* base) {
  if (blockIdx.x == 1 && threadIdx.x == 3) base[1] = 42;  // base is null
}

__global__ void partial_group_call() {
  if (threadIdx.x < 32) {
    if (rocshmem_emu_wi_group_enter(ROCSHMEM_EMU_WI_BLOCK, "test_wg_call")) {
    }
    rocshmem_emu_wi_group_leave(ROCSHMEM_EMU_WI_BLOCK);
  }
}

__global__ void whole_group_call(int* leaders, int* after, int* results) {
  int leader = rocshmem_emu_wi_group_enter(ROCSHMEM_EMU_WI_BLOCK, "test_wg_call");
  int first = -1;
  if (leader) {
    atomicAdd(leaders, 1);
    rocshmem_emu_wi_yield();  // others must still wait for the leader
    atomicExch(after, 1);
    first = 7;
  }
  rocshmem_emu_wi_group_leave_value(ROCSHMEM_EMU_WI_BLOCK, &first, sizeof first);
  if (!leader && atomicAdd(after, 0) != 1) {
    atomicAdd(leaders, 1000);  // a follower returned before the leader left
  }
  // A second call at once: its result must not replace the first before every member read it.
  int second = -1;
  if (rocshmem_emu_wi_group_enter(ROCSHMEM_EMU_WI_BLOCK, "test_wg_call")) second = 8;
  rocshmem_emu_wi_group_leave_value(ROCSHMEM_EMU_WI_BLOCK, &second, sizeof second);
  results[threadIdx.x] = first * 100 + second;
}

__global__ void divergent_meetings(int* out) {
  int v = threadIdx.x;
  if (static_cast<int>(threadIdx.x) < warpSize / 2) {  // half of the first wavefront
    __syncthreads();
  } else {
    v = __shfl(v, 0);
  }
  out[threadIdx.x] = v;
}

__global__ void failing_assert(int value) { assert(value == 1); }

__global__ void slow_write(int* data, int value) {
  for (int i = 0; i < 2000; ++i) rocshmem_emu_wi_yield();
  data[threadIdx.x] = value;
}

__global__ void doubler(int* data) { data[threadIdx.x] *= 2; }

__device__ int deep(int n) {
  volatile char frame[4096];
  frame[0] = static_cast<char>(n);
  return n == 0 ? 0 : deep(n - 1) + frame[0];
}

__global__ void overflow_stack(int* out) { out[threadIdx.x] = deep(1 << 20); }

// Many more blocks than are resident at once (ROCSHMEM_EMU_RESIDENT_WORK_ITEMS): all run.
__global__ void count_in_blocks(unsigned long long* total, unsigned* per_block) {
  __shared__ unsigned in_block;
  const bool first = threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0;
  if (first) in_block = 0;
  __syncthreads();
  atomicAdd(&in_block, 1u);
  __syncthreads();
  if (first) {
    per_block[blockIdx.x + gridDim.x * blockIdx.y] = in_block;
    atomicAdd(total, static_cast<unsigned long long>(in_block));
  }
}

// Every atomic function for every type HIP defines it for, each checked for its old value and
// its effect (one work-item; the totals above check atomicity). Counts the failed checks.
template <class T>
__device__ void check_integer_atomics(int* failures) {
  __shared__ T on_shared;  // the same functions on __shared__ memory
  T memory_value;  // global and private memory are the same memory on the CPU
  T* const places[] = {&on_shared, &memory_value};
  for (T* x : places) {
    auto expect = [&](T old, T was, T now) { if (old != was || *x != now) atomicAdd(failures, 1); };
    *x = 10;
    expect(atomicAdd(x, T(5)), 10, 15);
    expect(atomicSub(x, T(3)), 15, 12);
    expect(atomicExch(x, T(40)), 12, 40);
    expect(atomicMin(x, T(30)), 40, 30);
    expect(atomicMax(x, T(35)), 30, 35);
    expect(atomicAnd(x, T(0x21)), 35, 0x21);
    expect(atomicOr(x, T(0x0e)), 0x21, 0x2f);
    expect(atomicXor(x, T(0x0f)), 0x2f, 0x20);
    expect(atomicCAS(x, T(0x20), T(7)), 0x20, 7);
    expect(atomicCAS(x, T(99), T(8)), 7, 7);
    expect(atomicAdd_system(x, T(1)), 7, 8);
    expect(atomicMax_block(x, T(9)), 8, 9);
  }
}

template <class T>
__device__ void check_float_atomics(int* failures) {
  __shared__ T on_shared;
  T memory_value;  // global and private memory are the same memory on the CPU
  T* const places[] = {&on_shared, &memory_value};
  for (T* x : places) {
    auto expect = [&](T old, T was, T now) { if (old != was || *x != now) atomicAdd(failures, 1); };
    *x = 1.5;
    expect(atomicAdd(x, T(2)), T(1.5), T(3.5));
    expect(atomicSub(x, T(0.5)), T(3.5), T(3));
    expect(atomicExch(x, T(-4)), T(3), T(-4));
    expect(atomicMin(x, T(-5)), T(-4), T(-5));
    expect(atomicMax(x, T(2)), T(-5), T(2));
    expect(atomicCAS(x, T(2), T(6)), T(2), T(6));
    expect(unsafeAtomicAdd(x, T(1)), T(6), T(7));
    expect(safeAtomicMax(x, T(8)), T(7), T(8));
    expect(atomicAdd_system(x, T(1)), T(8), T(9));
  }
}

__global__ void atomic_matrix(int* failures) {
  check_integer_atomics<int>(failures);
  check_integer_atomics<unsigned int>(failures);
  check_integer_atomics<unsigned long>(failures);
  check_integer_atomics<unsigned long long>(failures);
  check_float_atomics<float>(failures);
  check_float_atomics<double>(failures);
  long long s = -3;
  if (atomicMin(&s, -7LL) != -3 || atomicMax(&s, 2LL) != -7 || atomicAdd(&s, 5LL) != 2 || s != 7)
    atomicAdd(failures, 1);
  unsigned short h = 3;
  if (atomicCAS(&h, static_cast<unsigned short>(3), static_cast<unsigned short>(9)) != 3 || h != 9)
    atomicAdd(failures, 1);
  unsigned wrap = 5;
  if (atomicInc(&wrap, 5u) != 5 || wrap != 0 || atomicDec(&wrap, 5u) != 0 || wrap != 5 ||
      atomicDec(&wrap, 5u) != 5 || wrap != 4)
    atomicAdd(failures, 1);
  float f = 1;
  atomicAddNoRet(&f, 2.0f);
  if (f != 3) atomicAdd(failures, 1);
}

__global__ void device_printf(int tag) {
  printf("kernel says %d from block %u thread %u\n", tag, blockIdx.x, threadIdx.x);
}

// clock64 and wall_clock64 advance while a work-item waits for the others.
__global__ void clocks(long long* out) {
  const long long c0 = clock64(), w0 = wall_clock64();
  for (int i = 0; i < 50; ++i) rocshmem_emu_wi_yield();
  __syncthreads();
  out[2 * threadIdx.x] = clock64() - c0;
  out[2 * threadIdx.x + 1] = wall_clock64() - w0;
}

// Wave-scope group calls: one leader per wavefront, the others wait for it.
__global__ void wave_group_call(int* leaders, int* lanes_seen, int* results) {
  int value = -1;
  if (rocshmem_emu_wi_group_enter(ROCSHMEM_EMU_WI_WAVE, "test_wave_call")) {
    atomicAdd(leaders, 1);
    CHECK_DEVICE(rocshmem_emu_wi_lane() == 0);
    atomicAdd(lanes_seen, static_cast<int>(rocshmem_emu_wi_wave_size()));
    value = static_cast<int>(1000 * blockIdx.x + threadIdx.x);  // the leader's: per block and wave
  }
  rocshmem_emu_wi_group_leave_value(ROCSHMEM_EMU_WI_WAVE, &value, sizeof value);
  results[blockIdx.x * blockDim.x + threadIdx.x] = value;
}

__global__ void mismatched_group_calls() {
  if (threadIdx.x < 32) {
    rocshmem_emu_wi_group_enter(ROCSHMEM_EMU_WI_BLOCK, "test_call_a");
  } else {
    rocshmem_emu_wi_group_enter(ROCSHMEM_EMU_WI_BLOCK, "test_call_b");
  }
  rocshmem_emu_wi_group_leave(ROCSHMEM_EMU_WI_BLOCK);
}

// A template kernel with static shared memory in a __device__ function.
template <int Factor>
__device__ int scaled_through_shared(int v) {
  __shared__ int scratch[128];
  scratch[threadIdx.x] = v * Factor;
  __syncthreads();
  return scratch[(threadIdx.x + 1) % blockDim.x];
}

template <class T, int Factor>
__global__ void template_kernel(T* out, T base) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = base + scaled_through_shared<Factor>(threadIdx.x);
}

// Waits for the host: the work-item's yields find nothing else runnable and must back off.
__global__ void wait_for_host(int* flag, int* seen) {
  while (atomicAdd(flag, 0) == 0) rocshmem_emu_wi_yield();
  *seen = 1;
}

// Block 0 spins on plain memory that block 1 writes, without yielding: it never ends on the
// emulator (a GPU would progress); the watchdog names it.
__global__ void spin_without_yield(volatile int* flag) {
  if (blockIdx.x == 0) {
    while (*flag == 0) {
    }
  } else {
    *flag = 1;
  }
}

// ---- spins: atomics, fences and sleeps are scheduling points -------------------------------------
// Block 0 waits for block 1 in four portable ways; none calls the emulator. Correct on a GPU.
__global__ void spin_on_atomics(int* flags, int* data, int* seen) {
  if (blockIdx.x == 1) {
    for (int i = 0; i < 4; ++i) {
      data[i] = 100 + i;
      __threadfence();
      atomicExch(&flags[i], 1);
    }
    return;
  }
  while (atomicAdd(&flags[0], 0) == 0) {
  }
  seen[0] = data[0];
  while (__hip_atomic_load(&flags[1], __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT) == 0) {
  }
  seen[1] = data[1];
  while (atomicCAS(&flags[2], 1, 2) != 1) {
  }
  seen[2] = data[2];
  while (*static_cast<volatile int*>(&flags[3]) == 0) __builtin_amdgcn_s_sleep(1);
  seen[3] = data[3];
}

// The last block of the grid releases all the others; with one block resident at a time only
// residency growth lets it start (a GPU holds every block of this grid at once).
__global__ void wait_for_last_block(int* release, int* arrived) {
  if (blockIdx.x == gridDim.x - 1) {
    if (threadIdx.x == 0) atomicExch(release, 1);
  } else {
    while (__hip_atomic_load(release, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT) == 0) __threadfence();
  }
  if (threadIdx.x == 0) atomicAdd(arrived, 1);
}

// Written for 64 lanes (as much CDNA code is): a 64-bit ballot counted as the wave, lane =
// threadIdx.x % 64 and a shuffle from lane 40. On a wave32 target each answer is wrong.
__global__ void assumes_64_lanes(int* lanes_counted, int* from_lane_40) {
  const int lane = threadIdx.x % 64;
  const int counted = __popcll(__ballot(1));
  const int got = __shfl(static_cast<int>(threadIdx.x), 40);
  if (lane == 0) lanes_counted[threadIdx.x / 64] = counted;
  from_lane_40[threadIdx.x] = got;
}

// ---- cases --------------------------------------------------------------------------------------

static void ggl_and_module_smoke() {
  const int n = 1000;
  int* data = device_array<int>(n);
  hipLaunchKernelGGL(add_one, dim3(4), dim3(256), 0, 0, data, n);
  HIP_OK(hipGetLastError());
  HIP_OK(hipDeviceSynchronize());
  std::vector<int> host = to_host(data, n);
  for (int i = 0; i < n; ++i) CHECK(host[i] == 1, "data[%d] = %d", i, host[i]);
  HIP_OK(hipFree(data));
}

static void shared_and_syncthreads() {
  const int blocks = 6, threads = 512, n = blocks * threads, shift = 37;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = i * 7 + 3;
  int* d_in = device_array<int>(n);
  int* d_out = device_array<int>(n);
  HIP_OK(hipMemcpy(d_in, in.data(), n * sizeof(int), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(rotate_in_block, blocks, threads, 0, 0, d_in, d_out, shift);
  HIP_OK(hipDeviceSynchronize());
  std::vector<int> out = to_host(d_out, n);
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < threads; ++t) {
      int expected = 2 * in[b * threads + ((t + 1) % threads + shift) % threads];
      CHECK(out[b * threads + t] == expected, "block %d thread %d: %d, expected %d", b, t,
            out[b * threads + t], expected);
    }
  HIP_OK(hipFree(d_in));
  HIP_OK(hipFree(d_out));
}

static void wave_shuffles() {
  const int blocks = 3, threads = 128, n = blocks * threads;
  ShuffleOut* d = device_array<ShuffleOut>(n);
  hipLaunchKernelGGL(shuffles, blocks, threads, 0, 0, d);
  HIP_OK(hipDeviceSynchronize());
  std::vector<ShuffleOut> out = to_host(d, n);
  auto value = [](int gid) { return gid * 3 + 1; };
  const int w = wave_size();
  for (int gid = 0; gid < n; ++gid) {
    const int lane = gid % w, wave_base = gid - lane;
    const ShuffleOut& r = out[gid];
    CHECK(r.direct == value(wave_base + (lane + 5) % w), "direct at %d", gid);
    CHECK(r.up == (lane >= 3 ? value(gid - 3) : value(gid)), "up at %d: %d", gid, r.up);
    CHECK(r.down == (lane + 7 < w ? value(gid + 7) : value(gid)), "down at %d: %d", gid, r.down);
    CHECK(r.xored == value(wave_base + (lane ^ 13)), "xor at %d", gid);
    CHECK(r.narrow == value(wave_base + (lane & ~15) + 2), "width 16 at %d: %d", gid, r.narrow);
    CHECK(r.as_double == value(wave_base + (63 - lane) % w) * 0.5, "double at %d", gid);
    int sum = 0;
    for (int l = 0; l < w; ++l) sum += value(wave_base + l);
    CHECK(r.wave_sum == sum, "wave sum at %d: %d, expected %d", gid, r.wave_sum, sum);
  }
  HIP_OK(hipFree(d));
}

static void wave_votes() {
  const int blocks = 2, threads = 100, n = blocks * threads;  // the second wave has 36 lanes
  VoteOut* d = device_array<VoteOut>(n);
  hipLaunchKernelGGL(votes, blocks, threads, 0, 0, d);
  HIP_OK(hipDeviceSynchronize());
  std::vector<VoteOut> out = to_host(d, n);
  const int w = wave_size();
  for (int gid = 0; gid < n; ++gid) {
    const int t = gid % threads, wave_first = gid - t % w, lanes = std::min(w, threads - t / w * w);
    unsigned long long ballot = 0, pairs = 0;
    for (int l = 0; l < lanes; ++l) {
      if ((wave_first + l) % 3 == 0) ballot |= 1ull << l;
      if ((wave_first + l) % 2 == 0) pairs++;
    }
    const unsigned long long active = lanes == 64 ? ~0ull : (1ull << lanes) - 1;  // wave32: high half 0
    CHECK(out[gid].ballot == ballot, "ballot at %d: %llx, expected %llx", gid, out[gid].ballot, ballot);
    CHECK(out[gid].active == active, "activemask at %d: %llx", gid, out[gid].active);
    CHECK(out[gid].any_five == (lanes > 5) && out[gid].all_true == 1, "any/all at %d", gid);
    CHECK(out[gid].all_pred == (pairs == static_cast<unsigned>(lanes)), "all(pred) at %d", gid);
  }
  HIP_OK(hipFree(d));
}

static void atomics() {
  const unsigned blocks = 8, threads = 256, n = blocks * threads;
  AtomicTotals init{};
  init.down = 1000000;
  AtomicTotals* d = device_array<AtomicTotals>(1);
  HIP_OK(hipMemcpy(d, &init, sizeof init, hipMemcpyHostToDevice));
  unsigned* sums = device_array<unsigned>(blocks);
  hipLaunchKernelGGL(atomics_everywhere, blocks, threads, 0, 0, d, sums);
  HIP_OK(hipDeviceSynchronize());
  AtomicTotals r = to_host(d, 1)[0];
  CHECK(r.count == static_cast<int>(n), "count %d", r.count);
  CHECK(r.id_sum == static_cast<unsigned long long>(n) * (n - 1) / 2, "id_sum %llu", r.id_sum);
  CHECK(r.float_count == static_cast<float>(n), "float %f", r.float_count);
  CHECK(r.double_halves == n * 0.5, "double %f", r.double_halves);
  CHECK(r.max_id == n - 1, "max %u", r.max_id);
  CHECK(r.min_signed == -static_cast<long long>(n - 1), "min %lld", r.min_signed);
  CHECK(r.or_bits == 0xffffffffu, "or %x", r.or_bits);
  CHECK(r.xor_bits == 0, "xor %x", r.xor_bits);  // each of 4 bits toggled n/4 (even) times
  CHECK(r.wrap == n % 100, "inc wrap %u", r.wrap);
  CHECK(r.cas_count == n, "cas %u", r.cas_count);
  CHECK(r.down == 1000000 - n, "sub %lu", r.down);
  CHECK(r.exchanged == 7, "exch %d", r.exchanged);
  std::vector<unsigned> block_sums = to_host(sums, blocks);
  for (unsigned b = 0; b < blocks; ++b)
    CHECK(block_sums[b] == threads * (threads - 1) / 2 + (threads - 1), "shared atomics of block %u: %u", b,
          block_sums[b]);
  HIP_OK(hipFree(d));
  HIP_OK(hipFree(sums));
}

static void blocks_wait_on_each_other() {
  const int blocks = 6;
  int* flags = device_array<int>(blocks);
  int* order = device_array<int>(blocks);
  int* position = device_array<int>(1);
  hipLaunchKernelGGL(wait_chain, blocks, 128, 0, 0, flags, order, position);
  HIP_OK(hipDeviceSynchronize());
  std::vector<int> got = to_host(order, blocks);
  for (int i = 0; i < blocks; ++i) CHECK(got[i] == blocks - 1 - i, "order[%d] = %d", i, got[i]);
  HIP_OK(hipFree(flags));
  HIP_OK(hipFree(order));
  HIP_OK(hipFree(position));
}

static void group_call_leader() {
  int* leaders = device_array<int>(1);
  int* after = device_array<int>(1);
  int* results = device_array<int>(256);
  hipLaunchKernelGGL(whole_group_call, 1, 256, 0, 0, leaders, after, results);
  HIP_OK(hipDeviceSynchronize());
  CHECK(to_host(leaders, 1)[0] == 1, "leaders %d (>= 1000: a follower did not wait)", to_host(leaders, 1)[0]);
  // Every member got the leader's results of both calls (group_leave_value).
  std::vector<int> got = to_host(results, 256);
  for (int i = 0; i < 256; ++i) CHECK(got[i] == 708, "work-item %d got %d, expected 708", i, got[i]);
  HIP_OK(hipFree(results));
  HIP_OK(hipFree(leaders));
  HIP_OK(hipFree(after));
}

static void bad_launches() {
  int* data = device_array<int>(4096);
  struct Case {
    dim3 grid, block;
    unsigned shared;
    hipError_t expected;
  } cases[] = {
      {dim3(1), dim3(2048), 0, hipErrorInvalidConfiguration},
      {dim3(1), dim3(1024, 2, 1), 0, hipErrorInvalidConfiguration},
      {dim3(0), dim3(64), 0, hipErrorInvalidConfiguration},
      {dim3(1, 0, 1), dim3(64), 0, hipErrorInvalidConfiguration},
      {dim3(1), dim3(64, 1, 0), 0, hipErrorInvalidConfiguration},
      {dim3(1), dim3(64), 65537, hipErrorInvalidValue},
      // All __shared__ variables of a program count for each of its kernels (README: limits).
      {dim3(1), dim3(1024), 60000, hipSuccess},
  };
  for (const Case& c : cases) {
    hipLaunchKernelGGL(add_one, c.grid, c.block, c.shared, 0, data, 4096);
    HIP_EXPECT(c.expected, hipGetLastError());
    HIP_OK(hipGetLastError());  // reset by the read
  }
  // Attributes of a host kernel (registered by its first hipLaunchKernelGGL).
  hipFuncAttributes attributes;
  HIP_OK(hipFuncGetAttributes(&attributes, reinterpret_cast<const void*>(&add_one)));
  CHECK(attributes.maxThreadsPerBlock == 1024, "maxThreadsPerBlock %d", attributes.maxThreadsPerBlock);
  CHECK(attributes.sharedSizeBytes > 0 && attributes.sharedSizeBytes + attributes.maxDynamicSharedSizeBytes == 65536,
        "shared %zu + dynamic %d", attributes.sharedSizeBytes, attributes.maxDynamicSharedSizeBytes);
  HIP_EXPECT(hipErrorInvalidDeviceFunction,
             hipFuncGetAttributes(&attributes, reinterpret_cast<const void*>(&bad_launches)));
  // hipLaunchKernel by address with a null parameter pointer.
  void* short_params[] = {&data, nullptr};
  HIP_EXPECT(hipErrorInvalidValue,
             hipLaunchKernel(reinterpret_cast<const void*>(&add_one), dim3(1), dim3(64), short_params, 0, 0));
  // A launch by the address of a function that is no kernel.
  void* none[] = {nullptr};
  HIP_EXPECT(hipErrorInvalidDeviceFunction,
             hipLaunchKernel(reinterpret_cast<const void*>(&bad_launches), dim3(1), dim3(1), none, 0, 0));
  HIP_OK(hipDeviceSynchronize());
  HIP_OK(hipFree(data));
}

static void module_api() {
  HIP_EXPECT(hipErrorFileNotFound, ({ hipModule_t m; hipModuleLoad(&m, "/nonexistent.emuco"); }));
  const char garbage[] = "not a code object\n";
  hipModule_t module;
  HIP_EXPECT(hipErrorInvalidImage, hipModuleLoadData(&module, garbage));
  std::ifstream file(g_module_path, std::ios::binary);
  std::vector<char> image((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  HIP_OK(hipModuleLoadData(&module, image.data()));

  hipFunction_t missing;
  HIP_EXPECT(hipErrorNotFound, hipModuleGetFunction(&missing, module, "no_such_kernel"));
  unsigned count = 0;
  HIP_OK(hipModuleGetFunctionCount(&count, module));
  CHECK(count == 7, "%u kernels", count);

  // Dynamic shared memory sized at launch, several blocks interleaved.
  hipFunction_t reverse;
  HIP_OK(hipModuleGetFunction(&reverse, module, "reverse_blocks"));
  const int blocks = 4, threads = 256;
  std::vector<int> host(blocks * threads);
  for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<int>(i);
  int* data = device_array<int>(host.size());
  HIP_OK(hipMemcpy(data, host.data(), host.size() * sizeof(int), hipMemcpyHostToDevice));
  void* params[] = {&data};
  HIP_OK(hipModuleLaunchKernel(reverse, blocks, 1, 1, threads, 1, 1, threads * sizeof(int), nullptr, params, nullptr));
  HIP_OK(hipDeviceSynchronize());
  std::vector<int> reversed = to_host(data, host.size());
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < threads; ++t)
      CHECK(reversed[b * threads + t] == b * threads + threads - 1 - t, "reverse at %d/%d", b, t);
  HIP_EXPECT(hipErrorInvalidValue, hipModuleLaunchKernel(reverse, 1, 1, 1, threads, 1, 1, 65537, nullptr, params, nullptr));
  HIP_EXPECT(hipErrorInvalidValue, hipGetLastError());

  // Static shared memory: attributes and results.
  hipFunction_t sums_kernel;
  HIP_OK(hipModuleGetFunction(&sums_kernel, module, "block_sums"));
  int shared_bytes = 0;
  HIP_OK(hipFuncGetAttribute(&shared_bytes, HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, sums_kernel));
  CHECK(shared_bytes >= 256 * 8 && shared_bytes < 4096, "static shared bytes %d", shared_bytes);
  hipFuncAttributes attributes;
  HIP_OK(hipFuncGetAttributes(&attributes, sums_kernel));
  CHECK(attributes.maxThreadsPerBlock == 1024, "maxThreadsPerBlock %d", attributes.maxThreadsPerBlock);
  long long* sums = device_array<long long>(blocks);
  void* sum_params[] = {&data, &sums};
  HIP_OK(hipModuleLaunchKernel(sums_kernel, blocks, 1, 1, threads, 1, 1, 0, nullptr, sum_params, nullptr));
  HIP_OK(hipDeviceSynchronize());
  std::vector<long long> got = to_host(sums, blocks);
  for (int b = 0; b < blocks; ++b) {
    long long expected = 0;
    for (int t = 0; t < threads; ++t) expected += b * threads + t;
    CHECK(got[b] == expected, "block %d sum %lld, expected %lld", b, got[b], expected);
  }

  // A module global, written by a kernel.
  hipDeviceptr_t counter = nullptr;
  size_t counter_bytes = 0;
  HIP_OK(hipModuleGetGlobal(&counter, &counter_bytes, module, "module_counter"));
  CHECK(counter != nullptr && counter_bytes == sizeof(int), "global of %zu bytes", counter_bytes);
  HIP_EXPECT(hipErrorNotFound, hipModuleGetGlobal(&counter, &counter_bytes, module, "nothing"));
  hipFunction_t bump;
  HIP_OK(hipModuleGetFunction(&bump, module, "bump_counter"));
  HIP_OK(hipModuleLaunchKernel(bump, 3, 1, 1, 100, 1, 1, 0, nullptr, nullptr, nullptr));
  void* no_arguments[] = {HIP_LAUNCH_PARAM_END};  // a kernel without parameters, through extra
  HIP_OK(hipModuleLaunchKernel(bump, 1, 1, 1, 10, 1, 1, 0, nullptr, nullptr, no_arguments));
  HIP_OK(hipDeviceSynchronize());
  int counted = 0;
  HIP_OK(hipMemcpy(&counted, counter, sizeof counted, hipMemcpyDeviceToHost));
  CHECK(counted == 310, "counter %d", counted);

  // A C++ kernel by its mangled name, launched through `extra` (natural alignment: 16 bytes).
  hipFunction_t scale;
  HIP_OK(hipModuleGetFunction(&scale, module, "_ZN4demo5scaleEPffi"));
  float* x = device_array<float>(64);
  std::vector<float> ones(64, 1.5f);
  HIP_OK(hipMemcpy(x, ones.data(), sizeof(float) * 64, hipMemcpyHostToDevice));
  struct {
    float* x;
    float factor;
    int n;
  } packed{x, 4.0f, 50};
  size_t packed_size = sizeof packed;
  void* extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &packed, HIP_LAUNCH_PARAM_BUFFER_SIZE, &packed_size,
                   HIP_LAUNCH_PARAM_END};
  HIP_OK(hipModuleLaunchKernel(scale, 1, 1, 1, 64, 1, 1, 0, nullptr, nullptr, extra));
  HIP_OK(hipDeviceSynchronize());
  std::vector<float> scaled = to_host(x, 64);
  for (int i = 0; i < 64; ++i) CHECK(scaled[i] == (i < 50 ? 6.0f : 1.5f), "scaled[%d] = %f", i, scaled[i]);
  size_t wrong_size = 12;
  void* wrong_extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &packed, HIP_LAUNCH_PARAM_BUFFER_SIZE, &wrong_size,
                         HIP_LAUNCH_PARAM_END};
  HIP_EXPECT(hipErrorInvalidValue, hipModuleLaunchKernel(scale, 1, 1, 1, 64, 1, 1, 0, nullptr, nullptr, wrong_extra));
  HIP_EXPECT(hipErrorInvalidValue, hipGetLastError());
  void* scale_params[] = {&x, &packed.factor, &packed.n};
  HIP_EXPECT(hipErrorInvalidValue, hipModuleLaunchKernel(scale, 1, 1, 1, 64, 1, 1, 0, nullptr, scale_params, extra));
  HIP_EXPECT(hipErrorInvalidValue, hipModuleLaunchKernel(scale, 1, 1, 1, 64, 1, 1, 0, nullptr, nullptr, nullptr));
  HIP_EXPECT(hipErrorInvalidConfiguration,
             hipModuleLaunchKernel(scale, 1, 1, 1, 2048, 1, 1, 0, nullptr, scale_params, nullptr));
  HIP_EXPECT(hipErrorInvalidConfiguration, hipGetLastError());

  // A template kernel by its mangled name, and a struct passed by value.
  hipFunction_t fill_double, takes_struct;
  HIP_OK(hipModuleGetFunction(&fill_double, module, "_Z10fill_valueIdEvPT_S0_"));
  HIP_OK(hipModuleGetFunction(&takes_struct, module, "takes_struct"));
  double* values = device_array<double>(64);
  double fill = 2.25;
  void* fill_params[] = {&values, &fill};
  HIP_OK(hipModuleLaunchKernel(fill_double, 2, 1, 1, 32, 1, 1, 0, nullptr, fill_params, nullptr));
  HIP_OK(hipDeviceSynchronize());
  for (double v : to_host(values, 64)) CHECK(v == 2.25, "fill_value<double> wrote %g", v);
  struct {
    int count;
    double scale;
  } pair{10, 0.5};
  char offset = 3;
  void* struct_params[] = {&pair, &offset, &values};
  HIP_OK(hipModuleLaunchKernel(takes_struct, 1, 1, 1, 64, 1, 1, 0, nullptr, struct_params, nullptr));
  HIP_OK(hipDeviceSynchronize());
  std::vector<double> products = to_host(values, 64);
  for (int t = 0; t < 64; ++t) CHECK(products[t] == 0.5 * (13 + t), "takes_struct[%d] = %g", t, products[t]);
  // The same through `extra`: {Pair at 0, char at 16, double* at 24} = 32 bytes.
  unsigned char buffer[32] = {};
  memcpy(buffer, &pair, sizeof pair);
  offset = 5;
  memcpy(buffer + 16, &offset, 1);
  memcpy(buffer + 24, &values, sizeof values);
  size_t buffer_size = sizeof buffer;
  void* struct_extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, buffer, HIP_LAUNCH_PARAM_BUFFER_SIZE, &buffer_size,
                          HIP_LAUNCH_PARAM_END};
  HIP_OK(hipModuleLaunchKernel(takes_struct, 1, 1, 1, 64, 1, 1, 0, nullptr, nullptr, struct_extra));
  HIP_OK(hipDeviceSynchronize());
  products = to_host(values, 64);
  for (int t = 0; t < 64; ++t) CHECK(products[t] == 0.5 * (15 + t), "takes_struct via extra [%d] = %g", t, products[t]);
  HIP_OK(hipFree(values));

  // Cooperative launches: every block must be resident at once.
  hipFunction_t fill_ids;
  HIP_OK(hipModuleGetFunction(&fill_ids, module, "fill_ids"));
  unsigned* ids = device_array<unsigned>(4 * 1024);
  int bias = 1;
  void* ids_params[] = {&ids, &bias};
  HIP_OK(hipModuleLaunchCooperativeKernel(fill_ids, 4, 1, 1, 1024, 1, 1, 0, nullptr, ids_params));
  HIP_EXPECT(hipErrorCooperativeLaunchTooLarge,
             hipModuleLaunchCooperativeKernel(fill_ids, 100, 1, 1, 1024, 1, 1, 0, nullptr, ids_params));
  HIP_EXPECT(hipErrorCooperativeLaunchTooLarge, hipGetLastError());
  HIP_OK(hipDeviceSynchronize());
  CHECK(to_host(ids, 4 * 1024)[3 * 1024 + 5] == 3 * 10000 + 5 + 1, "cooperative launch result");
  HIP_OK(hipFree(ids));

  // A launch still queued when its module is unloaded runs (the queue keeps the code object).
  hipStream_t stream;
  HIP_OK(hipStreamCreate(&stream));
  HIP_OK(hipLaunchHostFunc(stream, [](void*) { usleep(100 * 1000); }, nullptr));
  packed.factor = 2.0f;
  HIP_OK(hipModuleLaunchKernel(scale, 1, 1, 1, 64, 1, 1, 0, stream, nullptr, extra));
  HIP_OK(hipStreamQuery(stream) == hipErrorNotReady ? hipSuccess : hipErrorUnknown);

  // After unload the handles are invalid.
  HIP_OK(hipModuleUnload(module));
  HIP_OK(hipStreamSynchronize(stream));
  HIP_OK(hipStreamDestroy(stream));
  std::vector<float> rescaled = to_host(x, 64);
  for (int i = 0; i < 64; ++i) CHECK(rescaled[i] == (i < 50 ? 12.0f : 1.5f), "rescaled[%d] = %f", i, rescaled[i]);
  HIP_EXPECT(hipErrorInvalidHandle, hipModuleLaunchKernel(scale, 1, 1, 1, 64, 1, 1, 0, nullptr, scale_params, nullptr));
  HIP_EXPECT(hipErrorInvalidHandle, hipModuleGetFunction(&scale, module, "fill_ids"));
  HIP_EXPECT(hipErrorInvalidHandle, hipModuleUnload(module));
  HIP_OK(hipFree(x));
  HIP_OK(hipFree(sums));
  HIP_OK(hipFree(data));
}

static void stream_order() {
  hipStream_t first, second;
  HIP_OK(hipStreamCreate(&first));
  HIP_OK(hipStreamCreateWithFlags(&second, hipStreamNonBlocking));
  hipEvent_t written;
  HIP_OK(hipEventCreate(&written));
  int* data = device_array<int>(64);
  hipLaunchKernelGGL(slow_write, 1, 64, 0, first, data, 21);
  HIP_OK(hipEventRecord(written, first));
  HIP_OK(hipStreamWaitEvent(second, written, 0));
  hipLaunchKernelGGL(doubler, 1, 64, 0, second, data);
  HIP_OK(hipStreamSynchronize(second));
  std::vector<int> got = to_host(data, 64);
  for (int i = 0; i < 64; ++i) CHECK(got[i] == 42, "data[%d] = %d (the kernels ran out of order)", i, got[i]);
  HIP_OK(hipEventDestroy(written));
  HIP_OK(hipStreamDestroy(first));
  HIP_OK(hipStreamDestroy(second));
  HIP_OK(hipFree(data));
}

static void occupancy() {
  const dim3 grid(20, 3), block(16, 16, 4);  // 60 blocks of 1024 work-items
  unsigned long long* total = device_array<unsigned long long>(1);
  unsigned* per_block = device_array<unsigned>(60);
  hipLaunchKernelGGL(count_in_blocks, grid, block, 0, 0, total, per_block);
  HIP_OK(hipDeviceSynchronize());
  CHECK(to_host(total, 1)[0] == 60ull * 1024, "total %llu", to_host(total, 1)[0]);
  std::vector<unsigned> counts = to_host(per_block, 60);
  for (int b = 0; b < 60; ++b) CHECK(counts[b] == 1024, "block %d counted %u", b, counts[b]);
  HIP_OK(hipFree(total));
  HIP_OK(hipFree(per_block));
}

static void atomic_functions() {
  int* failures = device_array<int>(1);
  hipLaunchKernelGGL(atomic_matrix, 1, 1, 0, 0, failures);
  HIP_OK(hipDeviceSynchronize());
  CHECK(to_host(failures, 1)[0] == 0, "%d atomic checks failed", to_host(failures, 1)[0]);
  HIP_OK(hipFree(failures));
}

static void clocks_advance() {
  long long* out = device_array<long long>(2 * 64);
  hipLaunchKernelGGL(clocks, 1, 64, 0, 0, out);
  HIP_OK(hipDeviceSynchronize());
  std::vector<long long> got = to_host(out, 2 * 64);
  for (int t = 0; t < 64; ++t)
    CHECK(got[2 * t] > 0 && got[2 * t + 1] > 0, "thread %d: clock64 +%lld, wall_clock64 +%lld", t, got[2 * t],
          got[2 * t + 1]);
  int rate = 0;
  HIP_OK(hipDeviceGetAttribute(&rate, hipDeviceAttributeWallClockRate, 0));
  CHECK(rate == 1000000, "wall clock rate %d kHz (wall_clock64 counts nanoseconds)", rate);
  HIP_OK(hipFree(out));
}

static void wave_groups() {
  int* leaders = device_array<int>(1);
  int* lanes = device_array<int>(1);
  int* results = device_array<int>(2 * 160);
  hipLaunchKernelGGL(wave_group_call, 2, 160, 0, 0, leaders, lanes, results);  // waves of 64, 64, 32 (or 5 of 32)
  HIP_OK(hipDeviceSynchronize());
  std::vector<int> got = to_host(results, 2 * 160);
  for (int i = 0; i < 2 * 160; ++i) {
    const int expected = 1000 * (i / 160) + (i % 160) / wave_size() * wave_size();  // its wave leader's value
    CHECK(got[i] == expected, "work-item %d got %d from its wave leader, expected %d", i, got[i], expected);
  }
  HIP_OK(hipFree(results));
  const int waves = 2 * ((160 + wave_size() - 1) / wave_size());
  CHECK(to_host(leaders, 1)[0] == waves, "%d wave leaders, expected %d", to_host(leaders, 1)[0], waves);
  CHECK(to_host(lanes, 1)[0] == 320, "%d lanes in the waves", to_host(lanes, 1)[0]);
  HIP_OK(hipFree(leaders));
  HIP_OK(hipFree(lanes));
}

static void templates() {
  int* out = device_array<int>(2 * 128);
  hipLaunchKernelGGL((template_kernel<int, 3>), 2, 128, 0, 0, out, 1000);
  HIP_OK(hipDeviceSynchronize());
  std::vector<int> got = to_host(out, 2 * 128);
  for (int i = 0; i < 256; ++i) CHECK(got[i] == 1000 + 3 * ((i % 128 + 1) % 128), "out[%d] = %d", i, got[i]);
  HIP_OK(hipFree(out));
}

static void printf_from_kernel() {
  int pipe_fds[2];
  CHECK(pipe(pipe_fds) == 0, "pipe");
  pid_t pid = fork();
  if (pid == 0) {
    dup2(pipe_fds[1], STDOUT_FILENO);
    close(pipe_fds[0]);
    hipLaunchKernelGGL(device_printf, 2, 3, 0, 0, 77);
    _exit(hipDeviceSynchronize() == hipSuccess ? 0 : 1);  // no exit(): the output is already flushed
  }
  close(pipe_fds[1]);
  std::string output;
  char buffer[4096];
  ssize_t n;
  while ((n = read(pipe_fds[0], buffer, sizeof buffer)) > 0) output.append(buffer, n);
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %d", status);
  for (int b = 0; b < 2; ++b)
    for (int t = 0; t < 3; ++t) {
      std::string line = "kernel says 77 from block " + std::to_string(b) + " thread " + std::to_string(t) + "\n";
      CHECK(output.find(line) != std::string::npos, "missing line '%s' in:\n%s", line.c_str(), output.c_str());
    }
}

// A handler installed before the engine's (as the JVM's is) still gets the host threads' faults.
static sigjmp_buf g_host_fault_return;
static volatile sig_atomic_t g_host_faults = 0;

static void host_fault_handler(int, siginfo_t*, void*) {
  g_host_faults = g_host_faults + 1;
  siglongjmp(g_host_fault_return, 1);
}

static void host_faults_chain() {
  struct sigaction action {};
  action.sa_sigaction = host_fault_handler;
  action.sa_flags = SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  CHECK(sigaction(SIGSEGV, &action, nullptr) == 0, "sigaction");
  ggl_and_module_smoke();  // the first launch installs the engine's handler
  if (sigsetjmp(g_host_fault_return, 1) == 0) {
    static volatile uintptr_t invalid_address = 16;  // opaque to the compiler's bounds checks
    (void)*reinterpret_cast<volatile int*>(invalid_address);
  }
  CHECK(g_host_faults == 1, "the earlier handler saw %d faults", static_cast<int>(g_host_faults));
  ggl_and_module_smoke();  // kernels still run
}

static double process_cpu_seconds() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static void lonely_yield_backs_off() {
  int* flag = device_array<int>(1);
  int* seen = device_array<int>(1);
  hipLaunchKernelGGL(wait_for_host, 1, 1, 0, 0, flag, seen);
  const double cpu_before = process_cpu_seconds();
  usleep(400 * 1000);
  const double cpu_used = process_cpu_seconds() - cpu_before;
  __atomic_store_n(flag, 1, __ATOMIC_SEQ_CST);  // device memory is host memory on the emulator
  HIP_OK(hipDeviceSynchronize());
  CHECK(to_host(seen, 1)[0] == 1, "the kernel did not see the host's flag");
  CHECK(cpu_used < 0.2, "a waiting work-item used %.3f s of CPU in 0.4 s", cpu_used);
  HIP_OK(hipFree(flag));
  HIP_OK(hipFree(seen));
}

// A module that references rocSHMEM is refused until rocshmem_hipmodule_init marked it.
static void rocshmem_module_needs_init(const char* path) {
  hipModule_t module;
  HIP_OK(hipModuleLoad(&module, path));
  hipFunction_t kernel;
  HIP_OK(hipModuleGetFunction(&kernel, module, "rocshmem_user"));
  int* out = device_array<int>(8);
  int ask = 0;
  void* params[] = {&out, &ask};
  HIP_EXPECT(hipErrorNotInitialized, hipModuleLaunchKernel(kernel, 1, 1, 1, 8, 1, 1, 0, nullptr, params, nullptr));
  HIP_EXPECT(hipErrorNotInitialized, hipGetLastError());
  hipFunction_t plain;  // a kernel of the same object that does not reach rocSHMEM needs no init
  HIP_OK(hipModuleGetFunction(&plain, module, "plain_kernel"));
  void* plain_params[] = {&out};
  HIP_OK(hipModuleLaunchKernel(plain, 1, 1, 1, 8, 1, 1, 0, nullptr, plain_params, nullptr));
  HIP_OK(hipDeviceSynchronize());
  for (int v : to_host(out, 8)) CHECK(v == 6, "plain_kernel wrote %d", v);
  CHECK(rocshmem_emu_wi_module_mark_rocshmem(nullptr) != 0, "a null module was accepted");
  CHECK(rocshmem_emu_wi_module_mark_rocshmem(module) == 0, "the module was not accepted");
  HIP_OK(hipModuleLaunchKernel(kernel, 1, 1, 1, 8, 1, 1, 0, nullptr, params, nullptr));
  HIP_OK(hipDeviceSynchronize());
  std::vector<int> got = to_host(out, 8);
  for (int i = 0; i < 8; ++i) CHECK(got[i] == 5, "out[%d] = %d", i, got[i]);
  HIP_OK(hipModuleUnload(module));
  HIP_OK(hipFree(out));
}

// ---- cases that end the process ----------------------------------------------------------------

struct ChildResult {
  int status;  // exit status, or 128 + signal
  std::string output;
};

static ChildResult run_in_child(const std::function<void()>& body) {
  int pipe_fds[2];
  CHECK(pipe(pipe_fds) == 0, "pipe");
  pid_t pid = fork();
  if (pid == 0) {
    dup2(pipe_fds[1], STDERR_FILENO);
    close(pipe_fds[0]);
    body();
    HIP_OK(hipDeviceSynchronize());
    fprintf(stderr, "UNEXPECTED: the kernel completed\n");
    _exit(0);
  }
  close(pipe_fds[1]);
  ChildResult result{0, ""};
  char buffer[4096];
  ssize_t n;
  while ((n = read(pipe_fds[0], buffer, sizeof buffer)) > 0) result.output.append(buffer, n);
  close(pipe_fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  fprintf(stderr, "child (status %d) said:\n%s", result.status, result.output.c_str());
  return result;
}

static void expect_end(const std::function<void()>& body, const std::vector<std::string>& phrases) {
  ChildResult r = run_in_child(body);
  CHECK(r.status == 70, "exit status %d, expected 70", r.status);
  for (const std::string& phrase : phrases)
    CHECK(r.output.find(phrase) != std::string::npos, "no '%s' in the message", phrase.c_str());
}

static void fault() {
  expect_end([] { hipLaunchKernelGGL(null_write, 2, 64, 0, 0, static_cast<int*>(nullptr)); },
             {"HIP emulator: process ", "kernel 'null_write', block (1,0,0), thread (3,0,0)",
              "invalid memory access (SIGSEGV) at address 0x4"});
}

// ROCSHMEM_EMU_KERNEL_SEED=777 (ctest): a process that ran kernels in the random schedule names
// the seed when the engine ends it and when it exits with a failure status.
static void seed_printed() {
  expect_end([] { hipLaunchKernelGGL(null_write, 2, 64, 0, 0, static_cast<int*>(nullptr)); },
             {"invalid memory access", "ROCSHMEM_EMU_KERNEL_SEED=777 repeats it"});
  ChildResult r = run_in_child([] {
    int* out = device_array<int>(64);
    hipLaunchKernelGGL(add_one, 1, 64, 0, 0, out, 64);
    HIP_OK(hipDeviceSynchronize());
    exit(3);  // a failing test program
  });
  CHECK(r.status == 3, "exit status %d", r.status);
  CHECK(r.output.find("ROCSHMEM_EMU_KERNEL_SEED=777 repeats it") != std::string::npos, "no seed at a failing exit");
  r = run_in_child([] {
    int* out = device_array<int>(64);
    hipLaunchKernelGGL(add_one, 1, 64, 0, 0, out, 64);
    HIP_OK(hipDeviceSynchronize());
    exit(0);
  });
  CHECK(r.output.find("ROCSHMEM_EMU_KERNEL_SEED") == std::string::npos, "seed printed at a successful exit");
}

static void assert_fails() {
  expect_end([] { hipLaunchKernelGGL(failing_assert, 1, 2, 0, 0, 5); },
             {"kernel 'failing_assert', block (0,0,0), thread (0,0,0)", "failed assertion 'value == 1'"});
}

static void partial_group() {
  expect_end([] { hipLaunchKernelGGL(partial_group_call, 1, 64, 0, 0); },
             {"kernel 'partial_group_call', block (0,0,0), thread (",
              "finished the kernel while 32 of the 64 work-items of its block wait in test_wg_call"});
}

static void deadlock() {
  expect_end(
      [] {
        int* out = device_array<int>(64);
        hipLaunchKernelGGL(divergent_meetings, 1, 64, 0, 0, out);
      },
      wave_size() == 64 ? std::vector<std::string>{"kernel 'divergent_meetings' can never complete",
                                                   "block (0,0,0) of 64 work-items", "32 in __syncthreads",
                                                   "32 in a wavefront shuffle"}
                        : std::vector<std::string>{"kernel 'divergent_meetings' can never complete",
                                                   "block (0,0,0) of 64 work-items", "16 in __syncthreads",
                                                   "16 in a wavefront shuffle", "32 finished"});
}

static void stack_overflow() {
  expect_end(
      [] {
        int* out = device_array<int>(4);
        hipLaunchKernelGGL(overflow_stack, 1, 4, 0, 0, out);
      },
      {"kernel 'overflow_stack', block (0,0,0), thread (0,0,0)", "its stack overflowed"});
}

static void watchdog_names_spin() {
  setenv("ROCSHMEM_EMU_KERNEL_WATCHDOG", "1", 1);
  int pipe_fds[2];
  CHECK(pipe(pipe_fds) == 0, "pipe");
  pid_t pid = fork();
  if (pid == 0) {
    dup2(pipe_fds[1], STDERR_FILENO);
    close(pipe_fds[0]);
    int* flag = device_array<int>(1);
    hipLaunchKernelGGL(spin_without_yield, 2, 1, 0, 0, flag);
    (void)hipDeviceSynchronize();  // never returns; the parent kills this process
    _exit(0);
  }
  close(pipe_fds[1]);
  std::string output;
  const std::string phrase =
      "kernel 'spin_without_yield', block (0,0,0), thread (0,0,0) has run for 1 s without a switch "
      "while 1 work-item(s) wait to run: if it spins on plain memory";
  const double deadline = time(nullptr) + 30;
  char buffer[4096];
  while (output.find(phrase) == std::string::npos && time(nullptr) < deadline) {
    ssize_t n = read(pipe_fds[0], buffer, sizeof buffer);
    if (n <= 0) break;
    output.append(buffer, n);
  }
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  close(pipe_fds[0]);
  fprintf(stderr, "child said:\n%s", output.c_str());
  CHECK(output.find(phrase) != std::string::npos, "no watchdog warning");
  CHECK(output.find("use an atomic load (__hip_atomic_load") != std::string::npos, "the warning does not name the fix");
}

// Several distinct code objects in one process, also after unloading: each module runs its own
// kernels (the ELF images are loaded from memfds; a reused descriptor path must not return the
// object of an earlier module).
static void spins_let_others_run() {
  int* flags = device_array<int>(4);
  int* data = device_array<int>(4);
  int* seen = device_array<int>(4);
  hipLaunchKernelGGL(spin_on_atomics, 2, 1, 0, 0, flags, data, seen);
  HIP_OK(hipDeviceSynchronize());
  std::vector<int> got = to_host(seen, 4);
  for (int i = 0; i < 4; ++i) CHECK(got[i] == 100 + i, "spin %d saw %d", i, got[i]);
}

static void residency_grows_for_spins() {
  // ROCSHMEM_EMU_RESIDENT_WORK_ITEMS=64 (set by ctest): one block of 64 is resident at a time.
  int* release = device_array<int>(1);
  int* arrived = device_array<int>(1);
  hipLaunchKernelGGL(wait_for_last_block, 8, 64, 0, 0, release, arrived);
  HIP_OK(hipDeviceSynchronize());
  CHECK(to_host(arrived, 1)[0] == 8, "%d blocks arrived", to_host(arrived, 1)[0]);
}

static void wave64_assumption() {
  int* counted = device_array<int>(2);
  int* from_40 = device_array<int>(128);
  hipLaunchKernelGGL(assumes_64_lanes, 1, 128, 0, 0, counted, from_40);
  HIP_OK(hipDeviceSynchronize());
  std::vector<int> c = to_host(counted, 2), f = to_host(from_40, 128);
  if (wave_size() == 64) {
    CHECK(c[0] == 64 && c[1] == 64, "wave64: ballot counted %d, %d lanes", c[0], c[1]);
    for (int t = 0; t < 128; ++t) CHECK(f[t] == t / 64 * 64 + 40, "wave64: thread %d got %d from lane 40", t, f[t]);
  } else {
    // What a gfx11/gfx12 GPU gives this code: 32-lane ballots, lane 40 is lane 8 of the own wave.
    CHECK(c[0] == 32 && c[1] == 32, "wave32: ballot counted %d, %d lanes (the 64-lane code must see 32)", c[0], c[1]);
    int wrong = 0;
    for (int t = 0; t < 128; ++t) {
      CHECK(f[t] == t / 32 * 32 + 8, "wave32: thread %d got %d from lane 40", t, f[t]);
      wrong += f[t] != t / 64 * 64 + 40;
    }
    // Lanes 32-63 of each 64 still land on lane 40 by chance; the first wave of each 64 does not.
    CHECK(wrong == 64, "wave32: %d of 128 work-items got other data than at wave64 (expected 64)", wrong);
  }
}

// A code object compiled for gfx1100 runs at 32 lanes whatever ROCSHMEM_EMU_WAVE_SIZE says.
static void target_fixes_wave() {
  hipModule_t module;
  hipFunction_t report;
  HIP_OK(hipModuleLoad(&module, g_module_path));
  HIP_OK(hipModuleGetFunction(&report, module, "report_wave"));
  int* out = device_array<int>(3);
  void* params[] = {&out};
  HIP_OK(hipModuleLaunchKernel(report, 1, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
  HIP_OK(hipDeviceSynchronize());
  std::vector<int> got = to_host(out, 3);
  CHECK(got[0] == 32 && got[1] == 32 && got[2] == 32, "gfx1100 object: warpSize %d, __AMDGCN_WAVEFRONT_SIZE %d, "
        "lanes %d (expected 32)", got[0], got[1], got[2]);
  HIP_OK(hipModuleUnload(module));
}

static void two_modules() {
  const std::string first = g_module_path;
  const std::string second = first.substr(0, first.rfind('/') + 1) + "kernel_test_second_module.emuco";
  int* out = device_array<int>(64);
  for (int round = 0; round < 3; ++round) {
    hipModule_t first_module, second_module;
    HIP_OK(hipModuleLoad(&first_module, first.c_str()));
    HIP_OK(hipModuleLoad(&second_module, second.c_str()));
    hipFunction_t mark, missing;
    HIP_OK(hipModuleGetFunction(&mark, second_module, "second_module_mark"));
    HIP_EXPECT(hipErrorNotFound, hipModuleGetFunction(&missing, first_module, "second_module_mark"));
    HIP_EXPECT(hipErrorNotFound, hipModuleGetFunction(&missing, second_module, "fill_ids"));
    int value = 1000 * (round + 1);
    void* params[] = {&out, &value};
    HIP_OK(hipModuleLaunchKernel(mark, 1, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
    HIP_OK(hipDeviceSynchronize());
    std::vector<int> got = to_host(out, 64);
    for (int t = 0; t < 64; ++t) CHECK(got[t] == value + t, "round %d: out[%d] = %d", round, t, got[t]);
    // Unload in a different order each round, so descriptors are reused in both orders.
    if (round % 2 == 0) {
      HIP_OK(hipModuleUnload(first_module));
      HIP_OK(hipModuleUnload(second_module));
    } else {
      HIP_OK(hipModuleUnload(second_module));
      HIP_OK(hipModuleUnload(first_module));
    }
  }
  HIP_OK(hipFree(out));
}

static void mismatched_groups() {
  expect_end([] { hipLaunchKernelGGL(mismatched_group_calls, 1, 64, 0, 0); },
             {"kernel 'mismatched_group_calls', block (0,0,0), thread (",
              "while 32 of the 64 work-items of its block wait in test_call_"});
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s <case> <module.emuco>\n", argv[0]);
    return 2;
  }
  g_module_path = argv[2];
  const std::map<std::string, void (*)()> cases = {
      {"smoke", ggl_and_module_smoke},       {"shared", shared_and_syncthreads},
      {"shuffles", wave_shuffles},           {"votes", wave_votes},
      {"atomics", atomics},                  {"blocks_wait", blocks_wait_on_each_other},
      {"group_leader", group_call_leader},   {"bad_launches", bad_launches},
      {"module_api", module_api},            {"stream_order", stream_order},
      {"fault", fault},                      {"assert", assert_fails},
      {"partial_group", partial_group},      {"deadlock", deadlock},
      {"stack_overflow", stack_overflow},    {"occupancy", occupancy},
      {"atomic_functions", atomic_functions}, {"clocks", clocks_advance},
      {"wave_groups", wave_groups},          {"templates", templates},
      {"printf", printf_from_kernel},        {"mismatched_groups", mismatched_groups},
      {"lonely_yield", lonely_yield_backs_off}, {"watchdog", watchdog_names_spin},
      {"spins", spins_let_others_run}, {"seed_printed", seed_printed}, {"residency_growth", residency_grows_for_spins},
      {"wave64_assumption", wave64_assumption}, {"target_wave32", target_fixes_wave},
      {"host_faults_chain", host_faults_chain}, {"two_modules", two_modules},
  };
  if (std::string(argv[1]) == "rocshmem_module") {  // argv[2]: the uses-rocshmem code object
    rocshmem_module_needs_init(argv[2]);
    printf("PASS rocshmem_module\n");
    return 0;
  }
  auto it = cases.find(argv[1]);
  if (it == cases.end()) {
    fprintf(stderr, "unknown case %s\n", argv[1]);
    return 2;
  }
  it->second();
  printf("PASS %s\n", argv[1]);
  return 0;
}
