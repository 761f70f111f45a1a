// Two processes broadcast (argument "broadcast") or scatter ("scatter") with different roots: rank 0 passes root 0, rank 1
// passes root 1. Each believes it is the root and only sends, which completes silently on NCCL and
// RCCL; here both ranks must end the call with ncclInvalidUsage and a last error naming both roots.
#include <string>

#include "rccl_test.hpp"

using namespace rccl_test;

namespace {

void expect_root_error(ncclComm_t comm, int me, const char* what) {
  ncclResult_t async = ncclSuccess;
  NCCL_OK(ncclCommGetAsyncError(comm, &async));
  CHECK_EQ(static_cast<int>(ncclInvalidUsage), static_cast<int>(async));
  const std::string last = ncclGetLastError(comm);
  const std::string mine = "with root " + std::to_string(me) + " here but " + std::to_string(1 - me) + " on rank " +
                           std::to_string(1 - me);
  if (last.find(mine) == std::string::npos || last.find(what) == std::string::npos)
    die(__FILE__, __LINE__, "unexpected last error: " + last);
  std::printf("rank %d: %s root mismatch reported as '%s'\n", me, what, last.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  {
    const char* what = argc > 1 && std::string(argv[1]) == "scatter" ? "ncclScatter" : "ncclBroadcast";
    auto [me, n, comm] = join_launched_job();
    CHECK_EQ(2, n);
    float* buf;
    HIP_OK(hipMalloc(reinterpret_cast<void**>(&buf), 4096));
    hipStream_t stream;
    HIP_OK(hipStreamCreate(&stream));
    const int root = me;  // the disagreement under test
    if (std::string(what) == "ncclBroadcast")
      NCCL_OK(ncclBroadcast(buf, buf, 16, ncclFloat, root, comm, stream));
    else
      NCCL_OK(ncclScatter(buf, buf + 512, 16, ncclFloat, root, comm, stream));
    HIP_OK(hipStreamSynchronize(stream));
    expect_root_error(comm, me, what);
    NCCL_OK(ncclCommAbort(comm));
    HIP_OK(hipStreamDestroy(stream));
    HIP_OK(hipFree(buf));
  }
  return 0;
}
