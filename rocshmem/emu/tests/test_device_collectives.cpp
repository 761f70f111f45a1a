// Work-group and wavefront collectives from kernels, on WORLD and on a split team (the even
// PEs; odd PEs hold ROCSHMEM_TEAM_INVALID, where every collective is a no-op): reduce, broadcast,
// fcollect, alltoall(v), barrier/sync, team queries, wg_team_create_ctx; every work-item receives
// the leader's status. Then a device barrier_all (thread and _wg form) orders a put before the
// neighbour reads it.
#include "device/device_test.hpp"

#include <algorithm>

#include <string>

using namespace rocshmem;
using device_test::device_alloc;
using device_test::symmetric_alloc;

namespace {

constexpr int kN = 6;             // elements per PE
constexpr int kWgThreads = 128;   // two wavefronts
constexpr int kWaveThreads = 64;  // one wavefront

// Filled by the kernels: statuses of every work-item and the team facts they saw.
struct Results {
  int status[kWgThreads];
  int team_my_pe, team_n_pes, ctx_my_pe, ctx_n_pes, ctx_status;
};

__global__ void wg_collectives(rocshmem_team_t team, int* red_dst, const int* red_src, long* bc_dst,
                               const long* bc_src, int* fc_dst, const int* fc_src, int* a2a_dst, const int* a2a_src,
                               Results* out) {
  __shared__ rocshmem_ctx_t team_ctx;
  rocshmem_wg_init();
  int status = rocshmem_ctx_int_sum_reduce_wg(ROCSHMEM_CTX_DEFAULT, team, red_dst, red_src, kN);
  rocshmem_ctx_long_broadcast_wg(ROCSHMEM_CTX_DEFAULT, team, bc_dst, bc_src, kN, 0);
  rocshmem_ctx_int_fcollect_wg(ROCSHMEM_CTX_DEFAULT, team, fc_dst, fc_src, kN);
  rocshmem_int_alltoall_wg(team, a2a_dst, a2a_src, kN);
  rocshmem_ctx_barrier_wg(ROCSHMEM_CTX_DEFAULT, team);
  rocshmem_ctx_sync_wg(ROCSHMEM_CTX_DEFAULT, team);
  const int created = rocshmem_wg_team_create_ctx(team, 0, &team_ctx);
  out->status[threadIdx.x] = status;
  if (threadIdx.x == 0) {
    out->team_my_pe = rocshmem_team_my_pe(team);
    out->team_n_pes = rocshmem_team_n_pes(team);
    out->ctx_status = created;
    out->ctx_my_pe = created == 0 ? rocshmem_ctx_my_pe(team_ctx) : -2;
    out->ctx_n_pes = created == 0 ? rocshmem_ctx_n_pes(team_ctx) : -2;
  }
  if (created == 0) rocshmem_wg_ctx_destroy(&team_ctx);
  rocshmem_barrier_all_wg();
  rocshmem_wg_finalize();
}

__global__ void wave_collectives(rocshmem_team_t team, long* max_dst, const long* max_src, int* bc_dst,
                                 const int* bc_src, Results* out) {
  const int status = rocshmem_ctx_long_max_reduce_wave(ROCSHMEM_CTX_DEFAULT, team, max_dst, max_src, kN);
  const int bc = rocshmem_ctx_int_broadcast_wave(ROCSHMEM_CTX_DEFAULT, team, bc_dst, bc_src, kN, 0);
  rocshmem_sync_all_wave();
  out->status[threadIdx.x] = status + 10 * bc;
}

// alltoallv (GET algorithm): team PE j's block is j+1 elements at source_displs[j], the same
// layout on every PE; PE me receives me+1 elements from every PE i at dest_displs[i].
__global__ void wg_alltoallv(rocshmem_team_t team, int* dst, const size_t* dst_n, const size_t* dst_d, int* src,
                             const size_t* src_n, const size_t* src_d) {
  rocshmem_int_alltoallv_wg(team, dst, dst_n, dst_d, src, src_n, src_d);
}

void run_alltoallv(rocshmem_team_t team, int team_me, int team_n, const std::string& label) {
  const int n = rocshmem_n_pes();
  int* src = symmetric_alloc<int>(size_t(n) * (n + 1) / 2);
  int* dst = symmetric_alloc<int>(size_t(n) * n);
  auto* arrays = device_alloc<size_t>(4 * size_t(n));
  size_t *src_n = arrays, *src_d = arrays + n, *dst_n = arrays + 2 * n, *dst_d = arrays + 3 * n;
  for (int j = 0, at = 0; j < team_n; at += j + 1, ++j) {
    src_n[j] = j + 1;
    src_d[j] = at;
    dst_n[j] = team_me + 1;
    dst_d[j] = size_t(j) * (team_me + 1);
    for (int k = 0; k <= j; ++k) src[at + k] = team_me * 1000 + j * 10 + k;
  }
  rocshmem_barrier_all();
  DEVICE_LAUNCH_AND_SYNC(wg_alltoallv, dim3(1), dim3(kWaveThreads), team, dst, dst_n, dst_d, src, src_n, src_d);
  if (team != ROCSHMEM_TEAM_INVALID)
    for (int i = 0; i < team_n; ++i)
      for (int k = 0; k <= team_me; ++k)
        EMU_CHECK_EQ(dst[i * (team_me + 1) + k], i * 1000 + team_me * 10 + k,
                     label + ": alltoallv_wg from team PE " + std::to_string(i));
  HIP_CHECK(hipFree(arrays));
  rocshmem_free(dst);
  rocshmem_free(src);
  emu_test::passed((label + ": _wg alltoallv").c_str());
}

// Thread form: one work-item puts, waits in barrier_all, then reads what the left PE put.
__global__ void device_barrier(int* slot, int* seen, int right, int me) {
  if (threadIdx.x == 0) {
    rocshmem_int_p(&slot[0], 1000 + me, right);
    rocshmem_barrier_all();
    seen[0] = slot[0];
  }
  __syncthreads();
  if (threadIdx.x == 1) rocshmem_int_p(&slot[1], 2000 + me, right);
  rocshmem_barrier_all_wg();
  seen[1] = slot[1];
}

// red_src[j] = (team PE + 1) * 10 + j, so the sum over a team of n is 10 n(n+1)/2 + n j.
void run_wg(rocshmem_team_t team, int team_me, int team_n, const std::string& label) {
  int* red_src = symmetric_alloc<int>(kN);
  int* red_dst = symmetric_alloc<int>(kN);
  long* bc_src = symmetric_alloc<long>(kN);
  long* bc_dst = symmetric_alloc<long>(kN);
  int* fc_src = symmetric_alloc<int>(kN);
  int* fc_dst = symmetric_alloc<int>(size_t(kN) * rocshmem_n_pes());
  int* a2a_src = symmetric_alloc<int>(size_t(kN) * rocshmem_n_pes());
  int* a2a_dst = symmetric_alloc<int>(size_t(kN) * rocshmem_n_pes());
  auto* out = device_alloc<Results>(1);
  for (int j = 0; j < kN; ++j) {
    red_src[j] = (team_me + 1) * 10 + j;
    bc_src[j] = 7000 + team_me * 100 + j;
    fc_src[j] = team_me * 1000 + j;
  }
  for (int p = 0; p < team_n; ++p)
    for (int j = 0; j < kN; ++j) a2a_src[p * kN + j] = team_me * 10000 + p * 100 + j;
  rocshmem_barrier_all();
  DEVICE_LAUNCH_AND_SYNC(wg_collectives, dim3(1), dim3(kWgThreads), team, red_dst, red_src, bc_dst, bc_src, fc_dst,
                         fc_src, a2a_dst, a2a_src, out);
  for (int t = 0; t < kWgThreads; ++t) EMU_CHECK_EQ(out->status[t], 0, label + ": reduce_wg status of work-item " + std::to_string(t));
  if (team == ROCSHMEM_TEAM_INVALID) {
    for (int j = 0; j < kN; ++j) EMU_CHECK_EQ(red_dst[j], 0, label + ": no-op on ROCSHMEM_TEAM_INVALID");
    EMU_CHECK_EQ(out->ctx_status, static_cast<int>(ROCSHMEM_ERROR), label + ": wg_team_create_ctx on INVALID");
  } else {
    for (int j = 0; j < kN; ++j) {
      EMU_CHECK_EQ(red_dst[j], 10 * team_n * (team_n + 1) / 2 + team_n * j, label + ": sum_reduce_wg element " + std::to_string(j));
      EMU_CHECK_EQ(bc_dst[j], 7000L + j, label + ": broadcast_wg from team PE 0");
    }
    for (int p = 0; p < team_n; ++p)
      for (int j = 0; j < kN; ++j) {
        EMU_CHECK_EQ(fc_dst[p * kN + j], p * 1000 + j, label + ": fcollect_wg block " + std::to_string(p));
        EMU_CHECK_EQ(a2a_dst[p * kN + j], p * 10000 + team_me * 100 + j, label + ": alltoall_wg block " + std::to_string(p));
      }
    EMU_CHECK_EQ(out->team_my_pe, team_me, label + ": rocshmem_team_my_pe in a kernel");
    EMU_CHECK_EQ(out->team_n_pes, team_n, label + ": rocshmem_team_n_pes in a kernel");
    EMU_CHECK_EQ(out->ctx_status, 0, label + ": rocshmem_wg_team_create_ctx");
    EMU_CHECK_EQ(out->ctx_my_pe, team_me, label + ": rocshmem_ctx_my_pe of the team context");
    EMU_CHECK_EQ(out->ctx_n_pes, team_n, label + ": rocshmem_ctx_n_pes of the team context");
  }
  HIP_CHECK(hipFree(out));
  rocshmem_free(a2a_dst);
  rocshmem_free(a2a_src);
  rocshmem_free(fc_dst);
  rocshmem_free(fc_src);
  rocshmem_free(bc_dst);
  rocshmem_free(bc_src);
  rocshmem_free(red_dst);
  rocshmem_free(red_src);
  emu_test::passed((label + ": _wg collectives").c_str());
}

void run_wave(rocshmem_team_t team, int team_me, int team_n, const std::string& label) {
  long* max_src = symmetric_alloc<long>(kN);
  long* max_dst = symmetric_alloc<long>(kN);
  int* bc_src = symmetric_alloc<int>(kN);
  int* bc_dst = symmetric_alloc<int>(kN);
  auto* out = device_alloc<Results>(1);
  for (int j = 0; j < kN; ++j) {
    max_src[j] = (j % 2 ? -1L : 1L) * (team_me * 50 + j);
    bc_src[j] = 300 + team_me * 10 + j;
  }
  rocshmem_barrier_all();
  hipDeviceProp_t prop;  // one wavefront: 64 work-items, or 32 under ROCSHMEM_EMU_WAVE_SIZE=32
  HIP_CHECK(hipGetDeviceProperties(&prop, 0));
  const int wave_threads = std::min(prop.warpSize, kWaveThreads);
  DEVICE_LAUNCH_AND_SYNC(wave_collectives, dim3(1), dim3(wave_threads), team, max_dst, max_src, bc_dst, bc_src, out);
  for (int t = 0; t < wave_threads; ++t) EMU_CHECK_EQ(out->status[t], 0, label + ": _wave statuses of lane " + std::to_string(t));
  if (team != ROCSHMEM_TEAM_INVALID) {
    for (int j = 0; j < kN; ++j) {
      const long expected = j % 2 ? -long(j) : long((team_n - 1) * 50 + j);  // max of +-(50 p + j)
      EMU_CHECK_EQ(max_dst[j], expected, label + ": max_reduce_wave element " + std::to_string(j));
      EMU_CHECK_EQ(bc_dst[j], 300 + j, label + ": broadcast_wave element " + std::to_string(j));
    }
  }
  HIP_CHECK(hipFree(out));
  rocshmem_free(bc_dst);
  rocshmem_free(bc_src);
  rocshmem_free(max_dst);
  rocshmem_free(max_src);
  emu_test::passed((label + ": _wave collectives").c_str());
}

void run_device_barrier(int me, int right, int left) {
  int* slot = symmetric_alloc<int>(2);
  int* seen = device_alloc<int>(2);
  rocshmem_barrier_all();
  DEVICE_LAUNCH_AND_SYNC(device_barrier, dim3(1), dim3(kWaveThreads), slot, seen, right, me);
  EMU_CHECK_EQ(seen[0], 1000 + left, "value read right after a device rocshmem_barrier_all");
  EMU_CHECK_EQ(seen[1], 2000 + left, "value read right after rocshmem_barrier_all_wg");
  HIP_CHECK(hipFree(seen));
  rocshmem_free(slot);
  emu_test::passed("device barrier_all (thread and _wg form)");
}

}  // namespace

int main() {
  auto [me, npes, right, left] = emu_test::init_ring();
  run_wg(ROCSHMEM_TEAM_WORLD, me, npes, "WORLD");
  run_wave(ROCSHMEM_TEAM_WORLD, me, npes, "WORLD");
  run_alltoallv(ROCSHMEM_TEAM_WORLD, me, npes, "WORLD");

  rocshmem_team_t evens = ROCSHMEM_TEAM_INVALID;
  const int n_even = (npes + 1) / 2;
  EMU_CHECK_EQ(rocshmem_team_split_strided(ROCSHMEM_TEAM_WORLD, 0, 2, n_even, nullptr, 0, &evens), 0, "split");
  EMU_CHECK_EQ(evens == ROCSHMEM_TEAM_INVALID, me % 2 == 1, "odd PEs are outside the split");
  run_wg(evens, me / 2, n_even, "even PEs");
  run_wave(evens, me / 2, n_even, "even PEs");
  run_alltoallv(evens, me / 2, n_even, "even PEs");
  if (evens != ROCSHMEM_TEAM_INVALID) rocshmem_team_destroy(evens);

  run_device_barrier(me, right, left);
  rocshmem_finalize();
  return 0;
}
