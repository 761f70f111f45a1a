// Two processes; rank 1 dies right after joining. Rank 0's next collective must end with
// ncclRemoteError (and a last error naming the dead rank) instead of hanging.
#include <string>

#include "rccl_test.hpp"

using namespace rccl_test;

int main() {
  auto [me, n, comm] = join_launched_job();
  (void)n;
  if (me == 1) std::_Exit(0);  // gone without a word, as after a crash
  float* buf;
  HIP_OK(hipMalloc(reinterpret_cast<void**>(&buf), 1 << 20));
  hipStream_t stream;
  HIP_OK(hipStreamCreate(&stream));
  NCCL_OK(ncclAllReduce(buf, buf, (1 << 20) / 4, ncclFloat, ncclSum, comm, stream));
  HIP_OK(hipStreamSynchronize(stream));
  ncclResult_t async;
  NCCL_OK(ncclCommGetAsyncError(comm, &async));
  CHECK_EQ(static_cast<int>(ncclRemoteError), static_cast<int>(async));
  std::string last = ncclGetLastError(comm);
  CHECK(last.find("peer rank 1") != std::string::npos);
  CHECK(last.find("exited") != std::string::npos);
  NCCL_OK(ncclCommAbort(comm));
  HIP_OK(hipStreamDestroy(stream));
  HIP_OK(hipFree(buf));
  std::printf("rank 0: dead peer reported as '%s'\n", last.c_str());
  return 0;
}
