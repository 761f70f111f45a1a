// Three processes, each calling ncclReduce with itself as the root: everybody receives and nobody
// sends. NCCL hangs; the CPU RCCL must end every rank's stream with an error whose text names the
// deadlock and each rank's root, within seconds, and every process must exit normally.
#include <chrono>
#include <string>

#include "rccl_test.hpp"

using namespace rccl_test;

int main() {
  auto [me, n, comm] = join_launched_job();
  float* buf;
  HIP_OK(hipMalloc(reinterpret_cast<void**>(&buf), 64 * sizeof(float)));
  hipStream_t stream;
  HIP_OK(hipStreamCreate(&stream));
  auto start = std::chrono::steady_clock::now();
  NCCL_OK(ncclReduce(buf, buf, 64, ncclFloat, ncclSum, me, comm, stream));
  HIP_OK(hipStreamSynchronize(stream));
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
  ncclResult_t async = ncclSuccess;
  NCCL_OK(ncclCommGetAsyncError(comm, &async));
  CHECK(async == ncclInvalidUsage || async == ncclRemoteError);
  std::string last = ncclGetLastError(comm);
  CHECK(last.find("deadlock: ranks 0,1,2 wait only for each other") != std::string::npos);
  for (int r = 0; r < n; ++r) CHECK(last.find("with root " + std::to_string(r)) != std::string::npos);
  NCCL_OK(ncclCommAbort(comm));
  HIP_OK(hipStreamDestroy(stream));
  HIP_OK(hipFree(buf));
  std::printf("rank %d: deadlock reported as '%s'\n", me, last.c_str());
  return 0;
}
