// The HIP kernel language on the CPU, for g++ (C++17). Included through the emulator's
// hip/hip_runtime.h; see rocshmem/emu/kernel/README.md for the execution model and the limits.
//
// Kernels run as cooperative work-items (libhip_cpu_emu's scheduler); everything here either
// maps to plain C++ or asks the scheduler (ids, meetings) through rocshmem_emu_kernel_abi.h.
#ifndef ROCSHMEM_EMU_KERNEL_HPP
#define ROCSHMEM_EMU_KERNEL_HPP

#if !defined(__cplusplus) || __cplusplus < 201703L
#error "the HIP emulator's kernel language needs C++17 (g++ -std=c++17)"
#endif

#include <hip/hip_runtime_api.h>

#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <array>
#include <tuple>
#include <type_traits>
#include <utility>

#include "rocshmem_emu_kernel_abi.h"

// ---- qualifiers ---------------------------------------------------------------------------------
// hip_runtime_api.h defined these as empty for a non-HIP compiler; the emulator gives them meaning.
#undef __global__
#undef __device__
#undef __host__
#undef __shared__
#undef __constant__
// Kernels are kept (used) and never inlined into launch code. The one-byte patchable entry is the
// mark by which rocshmem-emu-hipcc finds a code object's kernels: GCC records every such
// function in __patchable_function_entries, template instantiations included (a section
// attribute would not survive them). The byte is a NOP before the entry; nothing patches it.
#define __global__ __attribute__((used, noinline, patchable_function_entry(1, 1)))
#define __device__
#define __host__
#define __constant__
// Shared memory is per block: every __shared__ variable is thread_local, and the scheduler swaps
// the module's thread-local image when it switches to a work-item of another block (so a block
// sees its own copy at stable addresses). `thread_local` at block scope implies `static`, and
// `extern __shared__ T name[]` becomes an extern thread_local that rocshmem-emu-hipcc binds to
// the block's dynamic shared memory (a host program compiled with plain g++ cannot use it: the
// link then fails naming the array).
#define __shared__ thread_local
#ifndef __launch_bounds__
#define __launch_bounds__(...)
#endif
#ifndef __align__
#define __align__(n) __attribute__((aligned(n)))
#endif
#ifndef __forceinline__
#define __forceinline__ inline __attribute__((always_inline))
#endif
#ifndef HIP_DYNAMIC_SHARED
#define HIP_DYNAMIC_SHARED(type, var) extern __shared__ type var[];
#endif
#ifndef HIP_DYNAMIC_SHARED_ATTRIBUTE
#define HIP_DYNAMIC_SHARED_ATTRIBUTE
#endif
#define __HIP_EMULATOR__ 1

// ---- ids ----------------------------------------------------------------------------------------
// threadIdx.x etc. read the running work-item (the scheduler keeps a per-thread pointer to it).
#define threadIdx (rocshmem_emu_wi_current_ids()->thread_idx)
#define blockIdx (rocshmem_emu_wi_current_ids()->block_idx)
#define blockDim (rocshmem_emu_wi_current_ids()->block_dim)
#define gridDim (rocshmem_emu_wi_current_ids()->grid_dim)
// The launch's wavefront size, 32 or 64 (ROCSHMEM_EMU_WAVE_SIZE, or the code object's target): a
// thread-local int of libhip_cpu_emu that the scheduler sets for the launch it runs. Not a constant,
// as in ROCm 7 (code that needs it at compile time reads __AMDGCN_WAVEFRONT_SIZE, defined when
// rocshmem-emu-hipcc is given a target).
extern __thread const int warpSize __asm__("rocshmem_emu_wi_warp_size");
// HIP's older spellings of the ids (hip_runtime.h defines them for every platform).
#define hipThreadIdx_x (threadIdx.x)
#define hipThreadIdx_y (threadIdx.y)
#define hipThreadIdx_z (threadIdx.z)
#define hipBlockIdx_x (blockIdx.x)
#define hipBlockIdx_y (blockIdx.y)
#define hipBlockIdx_z (blockIdx.z)
#define hipBlockDim_x (blockDim.x)
#define hipBlockDim_y (blockDim.y)
#define hipBlockDim_z (blockDim.z)
#define hipGridDim_x (gridDim.x)
#define hipGridDim_y (gridDim.y)
#define hipGridDim_z (gridDim.z)

inline unsigned __lane_id() { return rocshmem_emu_wi_lane(); }

// ---- synchronisation ----------------------------------------------------------------------------
inline void __syncthreads() { rocshmem_emu_wi_syncthreads(); }
// Work-items of a PE run on one thread, but device memory is shared with other PEs and host
// threads: the fences are real fences.
// A fence is also a scheduling point: a loop that polls plain memory between fences lets the other
// work-items run once it repeats them (see the README's execution model).
inline void __threadfence_block() {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  rocshmem_emu_wi_spin_point(ROCSHMEM_EMU_WI_SPIN_FENCE, nullptr, 0);
}
inline void __threadfence() { __threadfence_block(); }
inline void __threadfence_system() { __threadfence_block(); }
// The sleep intrinsics let the other work-items run at once (a GPU's s_sleep idles the wave).
inline void __builtin_amdgcn_s_sleep(int) { rocshmem_emu_wi_spin_point(ROCSHMEM_EMU_WI_SPIN_SLEEP, nullptr, 0); }
inline void __nanosleep(unsigned) { rocshmem_emu_wi_spin_point(ROCSHMEM_EMU_WI_SPIN_SLEEP, nullptr, 0); }

// ---- wavefront intrinsics -----------------------------------------------------------------------
// Every live lane of the wavefront must call them together (converged code): a lane that waits
// elsewhere makes the launch end with a message instead of a wrong answer. Source lanes follow
// HIP's formulas; a source outside the wave's live lanes returns the caller's own value.
namespace rocshmem_emu {
template <class T>
inline T shuffle_from(T var, int source) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8,
                "the emulator's shuffles take values of at most 8 bytes");
  uint64_t bits = 0;
  memcpy(&bits, &var, sizeof(T));
  bits = rocshmem_emu_wi_wave_exchange(ROCSHMEM_EMU_WI_SHUFFLE, bits, source);
  T out;
  memcpy(&out, &bits, sizeof(T));
  return out;
}
}  // namespace rocshmem_emu

template <class T>
inline T __shfl(T var, int src_lane, int width = warpSize) {
  const int self = static_cast<int>(__lane_id());
  return rocshmem_emu::shuffle_from(var, (src_lane & (width - 1)) + (self & ~(width - 1)));
}
template <class T>
inline T __shfl_up(T var, unsigned int lane_delta, int width = warpSize) {
  const int self = static_cast<int>(__lane_id());
  int index = self - static_cast<int>(lane_delta);
  if (index < (self & ~(width - 1))) index = self;
  return rocshmem_emu::shuffle_from(var, index);
}
template <class T>
inline T __shfl_down(T var, unsigned int lane_delta, int width = warpSize) {
  const int self = static_cast<int>(__lane_id());
  int index = self + static_cast<int>(lane_delta);
  if (static_cast<int>((self & (width - 1)) + lane_delta) >= width) index = self;
  return rocshmem_emu::shuffle_from(var, index);
}
template <class T>
inline T __shfl_xor(T var, int lane_mask, int width = warpSize) {
  const int self = static_cast<int>(__lane_id());
  int index = self ^ lane_mask;
  if (index >= ((self + width) & ~(width - 1))) index = self;
  return rocshmem_emu::shuffle_from(var, index);
}
inline unsigned long long __ballot(int predicate) {
  return rocshmem_emu_wi_wave_exchange(ROCSHMEM_EMU_WI_BALLOT, predicate != 0, 0);
}
inline unsigned long long __ballot64(int predicate) { return __ballot(predicate); }
inline int __any(int predicate) { return __ballot(predicate) != 0; }
inline int __all(int predicate) { return __ballot(predicate) == __ballot(1); }
// The lanes that take part: every live lane of the wave (the emulator has no divergence).
inline unsigned long long __activemask() { return __ballot(1); }

// ---- bit functions commonly used with ballots ---------------------------------------------------
inline int __popc(unsigned int x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __ffs(unsigned int x) { return __builtin_ffs(static_cast<int>(x)); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(unsigned long long x) { return __builtin_ffsll(static_cast<long long>(x)); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned>(x)); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x)); }

// ---- clocks -------------------------------------------------------------------------------------
// clock64: a cycle-like counter (the CPU's time-stamp counter); wall_clock64: nanoseconds of
// CLOCK_MONOTONIC, i.e. a constant 1 GHz clock (hipDeviceAttributeWallClockRate reports it).
inline long long clock64() { return static_cast<long long>(__builtin_ia32_rdtsc()); }
inline long long __clock64() { return clock64(); }
inline long long wall_clock64() {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<long long>(now.tv_sec) * 1000000000LL + now.tv_nsec;
}
inline long long __wall_clock64() { return wall_clock64(); }

// ---- device assert and abort ---------------------------------------------------------------------
// A failed assert ends the PE with a message naming the kernel, block and thread (a GPU traps).
// (If the source includes <assert.h> again after this header, glibc's assert aborts instead; the
// scheduler's SIGABRT handler still names the work-item.)
#undef assert
#ifdef NDEBUG
#define assert(expression) ((void)0)
#else
#define assert(expression)                                                                        \
  ((expression) ? (void)0                                                                          \
                : rocshmem_emu_wi_fault("failed assertion '" #expression "' at " __FILE__ ":" \
                                        ROCSHMEM_EMU_STRINGIFY(__LINE__)))
#endif
#define ROCSHMEM_EMU_STRINGIFY(x) ROCSHMEM_EMU_STRINGIFY_(x)
#define ROCSHMEM_EMU_STRINGIFY_(x) #x
inline void __trap() { rocshmem_emu_wi_fault("executed __trap()"); }

// ---- atomics ------------------------------------------------------------------------------------
// HIP's atomic functions for the types HIP defines them for, on global and __shared__ memory.
// Device memory is shared with other processes (the symmetric heap) and host threads, so these
// are real atomics. The _system variants are the same operations; _block ones too.
namespace rocshmem_emu {
// Every atomic is a scheduling point: its address and the value it returned tell the scheduler
// whether the work-item repeats itself without progress (a spin on a flag) or moves on.
template <class T>
inline T spin_point(const volatile T* address, T old) {
  uint64_t bits = 0;
  memcpy(&bits, const_cast<const T*>(&old), sizeof(T) < 8 ? sizeof(T) : 8);
  rocshmem_emu_wi_spin_point(ROCSHMEM_EMU_WI_SPIN_ATOMIC, address, bits);
  return old;
}
template <class T, class Update>
inline T atomic_update(T* address, Update update) {
  T old = __atomic_load_n(address, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(address, &old, update(old), true, __ATOMIC_SEQ_CST,
                                      __ATOMIC_RELAXED)) {
  }
  return old;
}
// Floating-point values go through their bit patterns (GCC has no atomic float arithmetic).
template <class T, class Bits, class Update>
inline T atomic_update_float(T* address, Update update) {
  static_assert(sizeof(T) == sizeof(Bits), "");
  Bits* bits = reinterpret_cast<Bits*>(address);
  Bits old = __atomic_load_n(bits, __ATOMIC_RELAXED);
  for (;;) {
    T value;
    memcpy(&value, &old, sizeof value);
    T next = update(value);
    Bits next_bits;
    memcpy(&next_bits, &next, sizeof next_bits);
    if (__atomic_compare_exchange_n(bits, &old, next_bits, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
      return value;
    }
  }
}
template <class T>
inline T atomic_cas(T* address, T compare, T value) {
  __atomic_compare_exchange_n(address, &compare, value, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  return compare;  // the old value, as HIP returns
}
template <class T, class Bits>
inline T atomic_cas_float(T* address, T compare, T value) {
  Bits expected, desired;
  memcpy(&expected, &compare, sizeof expected);
  memcpy(&desired, &value, sizeof desired);
  __atomic_compare_exchange_n(reinterpret_cast<Bits*>(address), &expected, desired, false,
                              __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  T old;
  memcpy(&old, &expected, sizeof old);
  return old;
}
}  // namespace rocshmem_emu

// Declares NAME, NAME_system and NAME_block for type T with the body given last (address, val).
#define ROCSHMEM_EMU_ATOMIC(T, NAME, ...)                                          \
  inline T NAME##_impl_(T* address, T val) { __VA_ARGS__ }                               \
  inline T NAME(T* address, T val) { return rocshmem_emu::spin_point(address, NAME##_impl_(address, val)); } \
  inline T NAME##_system(T* address, T val) { return NAME(address, val); }         \
  inline T NAME##_block(T* address, T val) { return NAME(address, val); }
#define ROCSHMEM_EMU_ATOMIC_INTEGER(T)                                                                 \
  ROCSHMEM_EMU_ATOMIC(T, atomicAdd, return __atomic_fetch_add(address, val, __ATOMIC_SEQ_CST);)         \
  ROCSHMEM_EMU_ATOMIC(T, atomicSub, return __atomic_fetch_sub(address, val, __ATOMIC_SEQ_CST);)         \
  ROCSHMEM_EMU_ATOMIC(T, atomicExch, return __atomic_exchange_n(address, val, __ATOMIC_SEQ_CST);)       \
  ROCSHMEM_EMU_ATOMIC(T, atomicAnd, return __atomic_fetch_and(address, val, __ATOMIC_SEQ_CST);)         \
  ROCSHMEM_EMU_ATOMIC(T, atomicOr, return __atomic_fetch_or(address, val, __ATOMIC_SEQ_CST);)           \
  ROCSHMEM_EMU_ATOMIC(T, atomicXor, return __atomic_fetch_xor(address, val, __ATOMIC_SEQ_CST);)         \
  ROCSHMEM_EMU_ATOMIC(T, atomicMin,                                                                     \
                      return rocshmem_emu::atomic_update(address, [val](T old) { return old < val ? old : val; });) \
  ROCSHMEM_EMU_ATOMIC(T, atomicMax,                                                                     \
                      return rocshmem_emu::atomic_update(address, [val](T old) { return old > val ? old : val; });) \
  inline T atomicCAS(T* address, T compare, T val) {                                                    \
    return rocshmem_emu::spin_point(address, rocshmem_emu::atomic_cas(address, compare, val));           \
  }                                                                                                        \
  inline T atomicCAS_system(T* address, T compare, T val) { return atomicCAS(address, compare, val); }        \
  inline T atomicCAS_block(T* address, T compare, T val) { return atomicCAS(address, compare, val); }
ROCSHMEM_EMU_ATOMIC_INTEGER(int)
ROCSHMEM_EMU_ATOMIC_INTEGER(unsigned int)
ROCSHMEM_EMU_ATOMIC_INTEGER(unsigned long)
ROCSHMEM_EMU_ATOMIC_INTEGER(unsigned long long)
// HIP defines only min, max (and add) for the signed 64-bit types.
ROCSHMEM_EMU_ATOMIC(long long, atomicMin,
                    return rocshmem_emu::atomic_update(address, [val](long long old) { return old < val ? old : val; });)
ROCSHMEM_EMU_ATOMIC(long long, atomicMax,
                    return rocshmem_emu::atomic_update(address, [val](long long old) { return old > val ? old : val; });)
ROCSHMEM_EMU_ATOMIC(long long, atomicAdd, return __atomic_fetch_add(address, val, __ATOMIC_SEQ_CST);)
inline unsigned short atomicCAS(unsigned short* address, unsigned short compare, unsigned short val) {
  return rocshmem_emu::spin_point(address, rocshmem_emu::atomic_cas(address, compare, val));
}
inline unsigned short atomicCAS_system(unsigned short* address, unsigned short compare, unsigned short val) {
  return atomicCAS(address, compare, val);
}
// atomicInc/atomicDec: wrap-around counters (old >= val -> 0; old == 0 or old > val -> val).
inline unsigned int atomicInc(unsigned int* address, unsigned int val) {
  return rocshmem_emu::spin_point(
      address, rocshmem_emu::atomic_update(address, [val](unsigned int old) { return old >= val ? 0u : old + 1; }));
}
inline unsigned int atomicDec(unsigned int* address, unsigned int val) {
  return rocshmem_emu::spin_point(
      address, rocshmem_emu::atomic_update(address,
                                           [val](unsigned int old) { return (old == 0 || old > val) ? val : old - 1; }));
}
#define ROCSHMEM_EMU_ATOMIC_FLOAT(T, BITS)                                                                  \
  ROCSHMEM_EMU_ATOMIC(T, atomicAdd,                                                                         \
                      return rocshmem_emu::atomic_update_float<T, BITS>(address, [val](T old) { return old + val; });) \
  ROCSHMEM_EMU_ATOMIC(T, atomicSub,                                                                         \
                      return rocshmem_emu::atomic_update_float<T, BITS>(address, [val](T old) { return old - val; });) \
  ROCSHMEM_EMU_ATOMIC(T, atomicMin,                                                                         \
                      return rocshmem_emu::atomic_update_float<T, BITS>(address, [val](T old) { return old < val ? old : val; });) \
  ROCSHMEM_EMU_ATOMIC(T, atomicMax,                                                                         \
                      return rocshmem_emu::atomic_update_float<T, BITS>(address, [val](T old) { return old > val ? old : val; });) \
  ROCSHMEM_EMU_ATOMIC(T, atomicExch,                                                                        \
                      return rocshmem_emu::atomic_update_float<T, BITS>(address, [val](T) { return val; });) \
  inline T atomicCAS(T* address, T compare, T val) {                                                         \
    return rocshmem_emu::spin_point(address, rocshmem_emu::atomic_cas_float<T, BITS>(address, compare, val)); \
  }                                                                                                          \
  inline T atomicCAS_system(T* address, T compare, T val) { return atomicCAS(address, compare, val); }      \
  inline T unsafeAtomicAdd(T* address, T val) { return atomicAdd(address, val); }                           \
  inline T safeAtomicAdd(T* address, T val) { return atomicAdd(address, val); }                             \
  inline T unsafeAtomicMin(T* address, T val) { return atomicMin(address, val); }                           \
  inline T safeAtomicMin(T* address, T val) { return atomicMin(address, val); }                             \
  inline T unsafeAtomicMax(T* address, T val) { return atomicMax(address, val); }                           \
  inline T safeAtomicMax(T* address, T val) { return atomicMax(address, val); }
ROCSHMEM_EMU_ATOMIC_FLOAT(float, uint32_t)
ROCSHMEM_EMU_ATOMIC_FLOAT(double, uint64_t)
inline void atomicAddNoRet(float* address, float val) { (void)atomicAdd(address, val); }
#undef ROCSHMEM_EMU_ATOMIC_FLOAT
#undef ROCSHMEM_EMU_ATOMIC_INTEGER
#undef ROCSHMEM_EMU_ATOMIC

// Clang's __hip_atomic_* builtins (HIP's own headers and portable kernels use them), with their
// memory orders and scopes; every one is a scheduling point like the functions above. The scope is
// accepted and ignored: the emulator's atomics are system-wide.
#ifndef __HIP_MEMORY_SCOPE_SINGLETHREAD
#define __HIP_MEMORY_SCOPE_SINGLETHREAD 1
#define __HIP_MEMORY_SCOPE_WAVEFRONT 2
#define __HIP_MEMORY_SCOPE_WORKGROUP 3
#define __HIP_MEMORY_SCOPE_AGENT 4
#define __HIP_MEMORY_SCOPE_SYSTEM 5
#endif
namespace rocshmem_emu {
template <class T>
inline T hip_atomic_load(const T* address, int order) {
  T value;
  __atomic_load(const_cast<T*>(address), &value, order);
  return spin_point(address, value);
}
template <class T, class V>
inline void hip_atomic_store(T* address, V value, int order) {
  T stored = static_cast<T>(value);
  __atomic_store(address, &stored, order);
  spin_point(address, stored);
}
template <class T, class V>
inline T hip_atomic_exchange(T* address, V value, int order) {
  T desired = static_cast<T>(value), old;
  __atomic_exchange(address, &desired, &old, order);
  return spin_point(address, old);
}
template <class T, class V>
inline bool hip_atomic_cas(T* address, T* expected, V desired, bool weak, int success, int failure) {
  T value = static_cast<T>(desired);
  const bool done = __atomic_compare_exchange(address, expected, &value, weak, success, failure);
  spin_point(address, *expected);
  return done;
}
}  // namespace rocshmem_emu
#define __hip_atomic_load(ptr, order, scope) ::rocshmem_emu::hip_atomic_load((ptr), (order))
#define __hip_atomic_store(ptr, value, order, scope) ::rocshmem_emu::hip_atomic_store((ptr), (value), (order))
#define __hip_atomic_exchange(ptr, value, order, scope) ::rocshmem_emu::hip_atomic_exchange((ptr), (value), (order))
#define __hip_atomic_compare_exchange_strong(ptr, expected, desired, success, failure, scope) \
  ::rocshmem_emu::hip_atomic_cas((ptr), (expected), (desired), false, (success), (failure))
#define __hip_atomic_compare_exchange_weak(ptr, expected, desired, success, failure, scope) \
  ::rocshmem_emu::hip_atomic_cas((ptr), (expected), (desired), true, (success), (failure))
#define __hip_atomic_fetch_add(ptr, value, order, scope) atomicAdd((ptr), (value))
#define __hip_atomic_fetch_sub(ptr, value, order, scope) atomicSub((ptr), (value))
#define __hip_atomic_fetch_and(ptr, value, order, scope) atomicAnd((ptr), (value))
#define __hip_atomic_fetch_or(ptr, value, order, scope) atomicOr((ptr), (value))
#define __hip_atomic_fetch_xor(ptr, value, order, scope) atomicXor((ptr), (value))
#define __hip_atomic_fetch_min(ptr, value, order, scope) atomicMin((ptr), (value))
#define __hip_atomic_fetch_max(ptr, value, order, scope) atomicMax((ptr), (value))

// ---- what the emulator cannot run: a compile-time error naming it ------------------------------
#define ROCSHMEM_EMU_UNSUPPORTED(what) \
  __attribute__((error(what " is not supported by the HIP emulator (see rocshmem/emu/kernel/README.md)")))
ROCSHMEM_EMU_UNSUPPORTED("__syncthreads_count") int __syncthreads_count(int);
ROCSHMEM_EMU_UNSUPPORTED("__syncthreads_and") int __syncthreads_and(int);
ROCSHMEM_EMU_UNSUPPORTED("__syncthreads_or") int __syncthreads_or(int);
ROCSHMEM_EMU_UNSUPPORTED("__shfl_sync (mask-based wave functions)") int __shfl_sync(...);
ROCSHMEM_EMU_UNSUPPORTED("__ballot_sync (mask-based wave functions)") int __ballot_sync(...);
ROCSHMEM_EMU_UNSUPPORTED("__smid") unsigned __smid(void);
#undef ROCSHMEM_EMU_UNSUPPORTED

// ---- launches from a C++ host program -----------------------------------------------------------
// Defined by `rocshmem-emu-hipcc -c` in a program with extern __shared__ arrays (weak: absent,
// they are null, and the program has no dynamic shared buffer).
extern "C" __attribute__((weak, visibility("hidden"))) const unsigned
    rocshmem_emu_program_dynamic_shared_capacity;
extern "C" __attribute__((weak, visibility("hidden"))) void* rocshmem_emu_program_dynamic_shared_address();

namespace rocshmem_emu {

template <class... P, size_t... I>
void call_kernel(const void* kernel, void** args, std::index_sequence<I...>) {
  auto function = reinterpret_cast<void (*)(P...)>(const_cast<void*>(kernel));
  function(*static_cast<std::decay_t<P>*>(args[I])...);
}

// The entry a launch calls: unpacks args[i] into the parameters of void(P...).
template <class... P>
void kernel_entry(const void* kernel, void** args) {
  call_kernel<P...>(kernel, args, std::index_sequence_for<P...>{});
}

template <class... P>
struct ParameterList {
  static constexpr unsigned sizes[sizeof...(P) + 1] = {static_cast<unsigned>(sizeof(std::decay_t<P>))..., 0};
  static constexpr unsigned aligns[sizeof...(P) + 1] = {static_cast<unsigned>(alignof(std::decay_t<P>))..., 0};
};

// A kernel's description for the launch engine (also used by the code-object registration).
template <class... P>
rocshmem_emu_wi_kernel_t describe_kernel(const char* name, void (*kernel)(P...),
                                         unsigned dynamic_shared_capacity = 0,
                                         void* (*dynamic_shared)(void) = nullptr) {
  return rocshmem_emu_wi_kernel_t{name,
                                  reinterpret_cast<const void*>(kernel),
                                  &kernel_entry<P...>,
                                  static_cast<unsigned>(sizeof...(P)),
                                  ParameterList<P...>::sizes,
                                  ParameterList<P...>::aligns,
                                  dynamic_shared_capacity,
                                  dynamic_shared};
}

// A kernel's parameter list as the compile driver reads it back from the code object's
// .rocshmem_emu_meta section: magic, kernel index, count, sizes..., alignments....
template <unsigned Index, class... P>
constexpr std::array<unsigned, 3 + 2 * sizeof...(P)> kernel_meta(void (*)(P...)) {
  return {{0x454D554Bu, Index, static_cast<unsigned>(sizeof...(P)),
           static_cast<unsigned>(sizeof(std::decay_t<P>))...,
           static_cast<unsigned>(alignof(std::decay_t<P>))...}};
}

// hipLaunchKernelGGL picks the kernel the way HIP's `kernel<<<...>>>(args...)` does: as the call
// kernel(args...) would, so an overloaded name or a template whose arguments are deduced from
// the launch arguments works. In order:
//   1. a kernel whose parameters are exactly the (decayed) argument types, overload or template;
//   2. the one kernel the name denotes (a plain function, an explicit template-id, a pointer):
//      the arguments convert to its parameter types, as in a call;
//   3. otherwise the call itself: the arguments are copied as given and the kernel is called with
//      them in the work-item (overload resolution and deduction as in kernel(args...)).
// The arguments are copied and the launch is queued on `stream` (errors: hipGetLastError).
template <class... P>
struct Signature {};
struct AnySignature {};

template <class... P>
auto resolve_kernel(Signature<P...>, void (*kernel)(P...)) -> void (*)(P...) {
  return kernel;
}
template <class... P>
auto resolve_kernel(AnySignature, void (*kernel)(P...)) -> void (*)(P...) {
  return kernel;
}

// Whether Resolve(AnySignature) names one kernel that takes these arguments.
template <class Resolve, class Enable, class... A>
struct ResolvesUniquely : std::false_type {};
template <class Resolve, class... A>
struct ResolvesUniquely<Resolve, std::void_t<std::invoke_result_t<Resolve, AnySignature>>, A...>
    : std::is_invocable<std::invoke_result_t<Resolve, AnySignature>, A...> {};

template <class... P, class... A>
void launch_kernel(const char* name, void (*kernel)(P...), dim3 grid, dim3 block, unsigned int shared_bytes,
                   hipStream_t stream, A&&... args) {
  const bool has_buffer = &rocshmem_emu_program_dynamic_shared_capacity != nullptr &&
                          &rocshmem_emu_program_dynamic_shared_address != nullptr;
  const rocshmem_emu_wi_kernel_t description =
      describe_kernel(name, kernel, has_buffer ? rocshmem_emu_program_dynamic_shared_capacity : 0u,
                      has_buffer ? &rocshmem_emu_program_dynamic_shared_address : nullptr);
  rocshmem_emu_wi_register_kernel(&description);
  std::tuple<std::decay_t<P>...> values(std::forward<A>(args)...);
  std::apply(
      [&](auto&... value) {
        void* pointers[sizeof...(P) + 1] = {static_cast<void*>(&value)..., nullptr};
        (void)hipLaunchKernel(reinterpret_cast<const void*>(kernel), grid, block, pointers,
                              shared_bytes, stream);
      },
      values);
}

// Case 3: the kernel is reached through Call (a closure calling kernel(args...), empty because
// the kernel is a function name). One static copy per call site and argument list is the
// launch's identity; it lives in the program's image, like a kernel, so the scheduler finds the
// program's __shared__ variables from its address.
template <class Call, class... D, size_t... I>
void call_through(const void* call, void** args, std::index_sequence<I...>) {
  (*static_cast<const Call*>(call))(*static_cast<D*>(args[I])...);
}
template <class Call, class... D>
void call_entry(const void* call, void** args) {
  call_through<Call, D...>(call, args, std::index_sequence_for<D...>{});
}

template <class Call, class... A>
void launch_call(const char* name, const Call& call, dim3 grid, dim3 block, unsigned int shared_bytes,
                 hipStream_t stream, A&&... args) {
  static_assert(std::is_empty_v<Call> && std::is_trivially_copyable_v<Call>,
                "hipLaunchKernelGGL: name the kernel by a function or template name");
  static const Call identity = call;
  const bool has_buffer = &rocshmem_emu_program_dynamic_shared_capacity != nullptr &&
                          &rocshmem_emu_program_dynamic_shared_address != nullptr;
  const rocshmem_emu_wi_kernel_t description{
      name,
      static_cast<const void*>(&identity),
      &call_entry<Call, std::decay_t<A>...>,
      static_cast<unsigned>(sizeof...(A)),
      ParameterList<std::decay_t<A>...>::sizes,
      ParameterList<std::decay_t<A>...>::aligns,
      has_buffer ? rocshmem_emu_program_dynamic_shared_capacity : 0u,
      has_buffer ? &rocshmem_emu_program_dynamic_shared_address : nullptr};
  rocshmem_emu_wi_register_kernel(&description);
  std::tuple<std::decay_t<A>...> values(std::forward<A>(args)...);
  std::apply(
      [&](auto&... value) {
        void* pointers[sizeof...(A) + 1] = {static_cast<void*>(&value)..., nullptr};
        (void)hipLaunchKernel(static_cast<const void*>(&identity), grid, block, pointers, shared_bytes,
                              stream);
      },
      values);
}

template <class Resolve, class Call, class... A>
void launch_ggl(const char* name, Resolve resolve, const Call& call, dim3 grid, dim3 block,
                unsigned int shared_bytes, hipStream_t stream, A&&... args) {
  if constexpr (std::is_invocable_v<Resolve, Signature<std::decay_t<A>...>>) {
    launch_kernel(name, resolve(Signature<std::decay_t<A>...>{}), grid, block, shared_bytes, stream,
                  std::forward<A>(args)...);
  } else if constexpr (ResolvesUniquely<Resolve, void, A...>::value) {
    launch_kernel(name, resolve(AnySignature{}), grid, block, shared_bytes, stream, std::forward<A>(args)...);
  } else if constexpr (std::is_invocable_v<const Call&, std::decay_t<A>&...>) {
    launch_call(name, call, grid, block, shared_bytes, stream, std::forward<A>(args)...);
  } else {
    static_assert(sizeof(Call) == 0,
                  "hipLaunchKernelGGL: no kernel of this name can be called with these arguments "
                  "(wrong number or types of kernel arguments)");
  }
}

}  // namespace rocshmem_emu

// hipLaunchKernelGGL(kernel, grid, block, shared_bytes, stream, args...); a template kernel with
// several arguments goes in parentheses or HIP_KERNEL_NAME, as with HIP:
// hipLaunchKernelGGL((k<int, 4>), ...) or hipLaunchKernelGGL(HIP_KERNEL_NAME(k<int, 4>), ...).
#ifndef HIP_KERNEL_NAME
#define HIP_KERNEL_NAME(...) __VA_ARGS__
#endif
#define ROCSHMEM_EMU_KERNEL_NAME(...) ROCSHMEM_EMU_KERNEL_NAME_(__VA_ARGS__)
#define ROCSHMEM_EMU_KERNEL_NAME_(...) #__VA_ARGS__
#define hipLaunchKernelGGL(kernel, ...)                                                              \
  ::rocshmem_emu::launch_ggl(                                                                        \
      ROCSHMEM_EMU_KERNEL_NAME(kernel),                                                              \
      [&](auto signature) -> decltype(::rocshmem_emu::resolve_kernel(signature, kernel)) {           \
        return ::rocshmem_emu::resolve_kernel(signature, kernel);                                    \
      },                                                                                             \
      [&](auto&... kernel_args) -> decltype((kernel)(kernel_args...)) { (kernel)(kernel_args...); }, \
      __VA_ARGS__)

#endif  // ROCSHMEM_EMU_KERNEL_HPP
