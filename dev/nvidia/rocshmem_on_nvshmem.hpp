// rocSHMEM's device API (and the host calls a cross-check driver needs) on NVSHMEM 3.4, for the
// real-GPU cross-check (dev/check-on-nvidia.sh; facts in docs/gpu-crosscheck.md). The kernels keep
// their rocSHMEM spelling; every call becomes the NVSHMEM call with the same meaning:
//   - constants are rocSHMEM's values and are translated at each call: NVSHMEM numbers the
//     comparisons EQ NE GT LE LT GE (rocSHMEM: EQ NE GT GE LT LE) and the signal operations
//     SET 9, ADD 10 (rocSHMEM: 0, 1);
//   - _wg is NVSHMEM's _block, _wave its _warp (a warp has 32 lanes, a CDNA wave 64);
//   - contexts are dropped (only the default context is mapped), teams are NVSHMEM's int handles;
//   - fence(pe) and per-PE quiet become the global fence/quiet (stronger, still correct);
//   - wg_init/wg_finalize do nothing.
// Host: rocshmem_init bootstraps with a unique id shared through a file (ROCSHMEM_XC_RANK,
// ROCSHMEM_XC_NPES, ROCSHMEM_XC_UID_FILE), for N plain processes on one GPU.
#ifndef XC_ROCSHMEM_ON_NVSHMEM_HPP
#define XC_ROCSHMEM_ON_NVSHMEM_HPP

#include <cuda_runtime.h>
#include <nvshmem.h>
#include <nvshmemx.h>

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace rocshmem {

// ---- constants (rocSHMEM's values) and their translation ----------------------------------------
enum rocshmem_cmps {
  ROCSHMEM_CMP_EQ = 0,
  ROCSHMEM_CMP_NE = 1,
  ROCSHMEM_CMP_GT = 2,
  ROCSHMEM_CMP_GE = 3,
  ROCSHMEM_CMP_LT = 4,
  ROCSHMEM_CMP_LE = 5,
};
enum ROCSHMEM_SIGNAL_OPS { ROCSHMEM_SIGNAL_SET = 0, ROCSHMEM_SIGNAL_ADD = 1 };
enum { ROCSHMEM_SUCCESS = 0 };

__host__ __device__ inline int xc_cmp(int rocshmem_cmp) {
  switch (rocshmem_cmp) {
    case ROCSHMEM_CMP_EQ: return NVSHMEM_CMP_EQ;
    case ROCSHMEM_CMP_NE: return NVSHMEM_CMP_NE;
    case ROCSHMEM_CMP_GT: return NVSHMEM_CMP_GT;
    case ROCSHMEM_CMP_GE: return NVSHMEM_CMP_GE;
    case ROCSHMEM_CMP_LT: return NVSHMEM_CMP_LT;
    case ROCSHMEM_CMP_LE: return NVSHMEM_CMP_LE;
    default: return -1;  // NVSHMEM rejects it as rocSHMEM would
  }
}
__host__ __device__ inline int xc_signal_op(int rocshmem_op) {
  return rocshmem_op == ROCSHMEM_SIGNAL_ADD ? NVSHMEM_SIGNAL_ADD : NVSHMEM_SIGNAL_SET;
}

// ---- contexts and teams -------------------------------------------------------------------------
struct rocshmem_ctx_t {
  void* ctx_opaque;
  void* team_opaque;
};
#define ROCSHMEM_CTX_DEFAULT (::rocshmem::rocshmem_ctx_t{nullptr, nullptr})
typedef nvshmem_team_t rocshmem_team_t;
#define ROCSHMEM_TEAM_WORLD ((::rocshmem::rocshmem_team_t)NVSHMEM_TEAM_WORLD)
#define ROCSHMEM_TEAM_INVALID ((::rocshmem::rocshmem_team_t)NVSHMEM_TEAM_INVALID)

// ---- host ---------------------------------------------------------------------------------------
namespace xc_detail {
inline int env_int(const char* name) {
  const char* value = getenv(name);
  if (value == nullptr) {
    fprintf(stderr, "rocshmem_on_nvshmem: %s is not set (see dev/check-on-nvidia.sh)\n", name);
    exit(3);
  }
  return atoi(value);
}
}  // namespace xc_detail

// Rank 0 writes the unique id to a file (write, then rename); the others wait for it.
inline int rocshmem_init() {
  const int rank = xc_detail::env_int("ROCSHMEM_XC_RANK"), npes = xc_detail::env_int("ROCSHMEM_XC_NPES");
  const char* path = getenv("ROCSHMEM_XC_UID_FILE");
  if (path == nullptr) {
    fprintf(stderr, "rocshmem_on_nvshmem: ROCSHMEM_XC_UID_FILE is not set\n");
    exit(3);
  }
  cudaSetDevice(0);
  nvshmemx_uniqueid_t id = NVSHMEMX_UNIQUEID_INITIALIZER;
  if (rank == 0) {
    nvshmemx_get_uniqueid(&id);
    char temporary[4096];
    snprintf(temporary, sizeof temporary, "%s.tmp", path);
    FILE* f = fopen(temporary, "wb");
    if (f == nullptr || fwrite(&id, sizeof id, 1, f) != 1 || fclose(f) != 0 || rename(temporary, path) != 0) {
      fprintf(stderr, "rocshmem_on_nvshmem: cannot write %s\n", path);
      exit(3);
    }
  } else {
    for (int tries = 0;; ++tries) {
      FILE* f = fopen(path, "rb");
      if (f != nullptr) {
        const bool read = fread(&id, sizeof id, 1, f) == 1;
        fclose(f);
        if (read) break;
      }
      if (tries > 60000) {
        fprintf(stderr, "rocshmem_on_nvshmem: no unique id in %s after 60 s\n", path);
        exit(3);
      }
      usleep(1000);
    }
  }
  nvshmemx_init_attr_t attr = NVSHMEMX_INIT_ATTR_INITIALIZER;
  nvshmemx_set_attr_uniqueid_args(rank, npes, &id, &attr);
  return nvshmemx_init_attr(NVSHMEMX_INIT_WITH_UNIQUEID, &attr) == 0 ? ROCSHMEM_SUCCESS : -1;
}
inline void rocshmem_finalize() { nvshmem_finalize(); }
inline void* rocshmem_malloc(size_t bytes) { return nvshmem_malloc(bytes); }
inline void rocshmem_free(void* p) { nvshmem_free(p); }
inline void rocshmem_barrier_all() { nvshmem_barrier_all(); }
inline void rocshmem_sync_all() { nvshmem_sync_all(); }

// ---- both ---------------------------------------------------------------------------------------
__host__ __device__ inline int rocshmem_my_pe() { return nvshmem_my_pe(); }
__host__ __device__ inline int rocshmem_n_pes() { return nvshmem_n_pes(); }

// ---- device: setup, ordering --------------------------------------------------------------------
__device__ inline void rocshmem_wg_init() {}
__device__ inline void rocshmem_wg_finalize() {}
__device__ inline int rocshmem_wg_ctx_create(int64_t, rocshmem_ctx_t* ctx) {
  *ctx = ROCSHMEM_CTX_DEFAULT;
  return 0;
}
__device__ inline void rocshmem_wg_ctx_destroy(rocshmem_ctx_t*) {}
__device__ inline void rocshmem_quiet() { nvshmem_quiet(); }
__device__ inline void rocshmem_ctx_quiet(rocshmem_ctx_t) { nvshmem_quiet(); }
__device__ inline void rocshmem_fence() { nvshmem_fence(); }
__device__ inline void rocshmem_fence(int) { nvshmem_fence(); }
__device__ inline void rocshmem_ctx_fence(rocshmem_ctx_t) { nvshmem_fence(); }
__device__ inline void rocshmem_pe_quiet(const int*, size_t) { nvshmem_quiet(); }

// ---- device: bytes ------------------------------------------------------------------------------
__device__ inline void rocshmem_putmem(void* d, const void* s, size_t n, int pe) { nvshmem_putmem(d, s, n, pe); }
__device__ inline void rocshmem_getmem(void* d, const void* s, size_t n, int pe) { nvshmem_getmem(d, s, n, pe); }
__device__ inline void rocshmem_putmem_nbi(void* d, const void* s, size_t n, int pe) {
  nvshmem_putmem_nbi(d, s, n, pe);
}
__device__ inline void rocshmem_getmem_nbi(void* d, const void* s, size_t n, int pe) {
  nvshmem_getmem_nbi(d, s, n, pe);
}
__device__ inline void rocshmem_putmem_wg(void* d, const void* s, size_t n, int pe) {
  nvshmemx_putmem_block(d, s, n, pe);
}
__device__ inline void rocshmem_getmem_wg(void* d, const void* s, size_t n, int pe) {
  nvshmemx_getmem_block(d, s, n, pe);
}
__device__ inline void rocshmem_putmem_nbi_wg(void* d, const void* s, size_t n, int pe) {
  nvshmemx_putmem_nbi_block(d, s, n, pe);
}
__device__ inline void rocshmem_putmem_wave(void* d, const void* s, size_t n, int pe) {
  nvshmemx_putmem_warp(d, s, n, pe);
}
__device__ inline void rocshmem_getmem_wave(void* d, const void* s, size_t n, int pe) {
  nvshmemx_getmem_warp(d, s, n, pe);
}
__device__ inline void rocshmem_putmem_nbi_wave(void* d, const void* s, size_t n, int pe) {
  nvshmemx_putmem_nbi_warp(d, s, n, pe);
}

// ---- device: signals ----------------------------------------------------------------------------
__device__ inline void rocshmem_putmem_signal(void* d, const void* s, size_t n, uint64_t* sig, uint64_t value,
                                              int op, int pe) {
  nvshmem_putmem_signal(d, s, n, sig, value, xc_signal_op(op), pe);
}
__device__ inline void rocshmem_putmem_signal_nbi(void* d, const void* s, size_t n, uint64_t* sig, uint64_t value,
                                                  int op, int pe) {
  nvshmem_putmem_signal_nbi(d, s, n, sig, value, xc_signal_op(op), pe);
}
__device__ inline void rocshmem_putmem_signal_wg(void* d, const void* s, size_t n, uint64_t* sig, uint64_t value,
                                                 int op, int pe) {
  nvshmemx_putmem_signal_block(d, s, n, sig, value, xc_signal_op(op), pe);
}
__device__ inline void rocshmem_putmem_signal_wave(void* d, const void* s, size_t n, uint64_t* sig, uint64_t value,
                                                   int op, int pe) {
  nvshmemx_putmem_signal_warp(d, s, n, sig, value, xc_signal_op(op), pe);
}
__device__ inline uint64_t rocshmem_signal_fetch(const uint64_t* sig) { return nvshmem_signal_fetch(const_cast<uint64_t*>(sig)); }
__device__ inline uint64_t rocshmem_signal_wait_until(uint64_t* sig, int cmp, uint64_t value) {
  return nvshmem_signal_wait_until(sig, xc_cmp(cmp), value);
}

// ---- device: typed RMA, atomics, point-to-point synchronisation ---------------------------------
// NAME: rocSHMEM's and NVSHMEM's type name (they agree for these types).
#define XC_TYPED_RMA(T, NAME)                                                                          \
  __device__ inline void rocshmem_##NAME##_p(T* d, T v, int pe) { nvshmem_##NAME##_p(d, v, pe); }     \
  __device__ inline T rocshmem_##NAME##_g(const T* s, int pe) { return nvshmem_##NAME##_g(s, pe); }   \
  __device__ inline void rocshmem_##NAME##_put(T* d, const T* s, size_t n, int pe) {                  \
    nvshmem_##NAME##_put(d, s, n, pe);                                                                 \
  }                                                                                                    \
  __device__ inline void rocshmem_##NAME##_get(T* d, const T* s, size_t n, int pe) {                  \
    nvshmem_##NAME##_get(d, s, n, pe);                                                                 \
  }                                                                                                    \
  __device__ inline void rocshmem_##NAME##_put_nbi(T* d, const T* s, size_t n, int pe) {              \
    nvshmem_##NAME##_put_nbi(d, s, n, pe);                                                             \
  }                                                                                                    \
  __device__ inline void rocshmem_##NAME##_put_wg(T* d, const T* s, size_t n, int pe) {               \
    nvshmemx_##NAME##_put_block(d, s, n, pe);                                                          \
  }                                                                                                    \
  __device__ inline void rocshmem_##NAME##_put_wave(T* d, const T* s, size_t n, int pe) {             \
    nvshmemx_##NAME##_put_warp(d, s, n, pe);                                                           \
  }
XC_TYPED_RMA(char, char)
XC_TYPED_RMA(short, short)
XC_TYPED_RMA(int, int)
XC_TYPED_RMA(long, long)
XC_TYPED_RMA(long long, longlong)
XC_TYPED_RMA(float, float)
XC_TYPED_RMA(double, double)
#undef XC_TYPED_RMA

#define XC_WAIT(T, NAME)                                                                               \
  __device__ inline void rocshmem_##NAME##_wait_until(T* ivar, int cmp, T value) {                    \
    nvshmem_##NAME##_wait_until(ivar, xc_cmp(cmp), value);                                             \
  }                                                                                                    \
  __device__ inline int rocshmem_##NAME##_test(T* ivar, int cmp, T value) {                           \
    return nvshmem_##NAME##_test(ivar, xc_cmp(cmp), value);                                            \
  }
XC_WAIT(int, int)
XC_WAIT(long, long)
XC_WAIT(long long, longlong)
XC_WAIT(unsigned int, uint)
XC_WAIT(unsigned long, ulong)
XC_WAIT(unsigned long long, ulonglong)
XC_WAIT(uint64_t, uint64)
#undef XC_WAIT

// 64-bit atomics go through `long` (NVSHMEM's device library lacks some int64 forms).
#define XC_ATOMICS(T, NAME)                                                                                        \
  __device__ inline T rocshmem_##NAME##_atomic_fetch(T* d, int pe) { return nvshmem_##NAME##_atomic_fetch(d, pe); } \
  __device__ inline void rocshmem_##NAME##_atomic_set(T* d, T v, int pe) { nvshmem_##NAME##_atomic_set(d, v, pe); } \
  __device__ inline T rocshmem_##NAME##_atomic_swap(T* d, T v, int pe) { return nvshmem_##NAME##_atomic_swap(d, v, pe); } \
  __device__ inline T rocshmem_##NAME##_atomic_compare_swap(T* d, T cond, T v, int pe) {                           \
    return nvshmem_##NAME##_atomic_compare_swap(d, cond, v, pe);                                                    \
  }                                                                                                                 \
  __device__ inline void rocshmem_##NAME##_atomic_add(T* d, T v, int pe) { nvshmem_##NAME##_atomic_add(d, v, pe); } \
  __device__ inline T rocshmem_##NAME##_atomic_fetch_add(T* d, T v, int pe) {                                      \
    return nvshmem_##NAME##_atomic_fetch_add(d, v, pe);                                                             \
  }                                                                                                                 \
  __device__ inline void rocshmem_##NAME##_atomic_inc(T* d, int pe) { nvshmem_##NAME##_atomic_inc(d, pe); }        \
  __device__ inline T rocshmem_##NAME##_atomic_fetch_inc(T* d, int pe) { return nvshmem_##NAME##_atomic_fetch_inc(d, pe); }
XC_ATOMICS(int, int)
XC_ATOMICS(long, long)
XC_ATOMICS(long long, longlong)
XC_ATOMICS(unsigned int, uint)
XC_ATOMICS(unsigned long long, ulonglong)
#undef XC_ATOMICS

// ---- device: collectives of a work-group (NVSHMEM block) ----------------------------------------
__device__ inline void rocshmem_barrier_all_wg() { nvshmemx_barrier_all_block(); }
__device__ inline void rocshmem_sync_all_wg() { nvshmemx_sync_all_block(); }
__device__ inline void rocshmem_ctx_barrier_all_wg(rocshmem_ctx_t) { nvshmemx_barrier_all_block(); }
__device__ inline void rocshmem_ctx_sync_all_wg(rocshmem_ctx_t) { nvshmemx_sync_all_block(); }
__device__ inline void rocshmem_ctx_wg_barrier_all(rocshmem_ctx_t) { nvshmemx_barrier_all_block(); }
__device__ inline void rocshmem_ctx_barrier_wg(rocshmem_ctx_t, rocshmem_team_t team) { nvshmemx_barrier_block(team); }
__device__ inline void rocshmem_ctx_sync_wg(rocshmem_ctx_t, rocshmem_team_t team) { nvshmemx_team_sync_block(team); }

#define XC_COLLECTIVES(T, NAME)                                                                            \
  __device__ inline void rocshmem_ctx_##NAME##_broadcast_wg(rocshmem_ctx_t, rocshmem_team_t team, T* d,    \
                                                            const T* s, int n, int root) {                \
    nvshmemx_##NAME##_broadcast_block(team, d, s, n, root);                                                \
  }                                                                                                        \
  __device__ inline void rocshmem_ctx_##NAME##_fcollect_wg(rocshmem_ctx_t, rocshmem_team_t team, T* d,     \
                                                           const T* s, int n) {                           \
    nvshmemx_##NAME##_fcollect_block(team, d, s, n);                                                       \
  }                                                                                                        \
  __device__ inline void rocshmem_ctx_##NAME##_alltoall_wg(rocshmem_ctx_t, rocshmem_team_t team, T* d,     \
                                                           const T* s, int n) {                           \
    nvshmemx_##NAME##_alltoall_block(team, d, s, n);                                                       \
  }
XC_COLLECTIVES(int, int)
XC_COLLECTIVES(long, long)
XC_COLLECTIVES(float, float)
XC_COLLECTIVES(double, double)
#undef XC_COLLECTIVES

// NAME: rocSHMEM's type name; NV: NVSHMEM's (its bitwise reductions name int and long int32, int64).
#define XC_REDUCE(T, NAME, NV, OP)                                                                          \
  __device__ inline int rocshmem_ctx_##NAME##_##OP##_reduce_wg(rocshmem_ctx_t, rocshmem_team_t team, T* d,  \
                                                               const T* s, int n) {                        \
    return nvshmemx_##NV##_##OP##_reduce_block(team, d, s, n);                                              \
  }
#define XC_REDUCE_ARITH(T, NAME) \
  XC_REDUCE(T, NAME, NAME, sum) XC_REDUCE(T, NAME, NAME, prod) XC_REDUCE(T, NAME, NAME, min) XC_REDUCE(T, NAME, NAME, max)
#define XC_REDUCE_BITS(T, NAME, NV) XC_REDUCE(T, NAME, NV, and) XC_REDUCE(T, NAME, NV, or) XC_REDUCE(T, NAME, NV, xor)
XC_REDUCE_ARITH(int, int)
XC_REDUCE_BITS(int, int, int32)
XC_REDUCE_ARITH(long, long)
XC_REDUCE_BITS(long, long, int64)
XC_REDUCE_ARITH(float, float)
XC_REDUCE_ARITH(double, double)
#undef XC_REDUCE_BITS
#undef XC_REDUCE_ARITH
#undef XC_REDUCE

}  // namespace rocshmem

#endif  // XC_ROCSHMEM_ON_NVSHMEM_HPP
