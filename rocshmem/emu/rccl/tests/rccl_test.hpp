// Helpers shared by the native tests of the CPU RCCL: checks that name the failing expression,
// typed element access (values are written and read as doubles through the element codecs), and
// the unique-id hand-over between the processes of one job.
#pragma once

#include <hip/hip_runtime_api.h>
#include <rccl/rccl.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <unistd.h>

#include "datatypes.hpp"

namespace rccl_test {

inline int g_rank = 0;
inline long g_checks = 0;

[[noreturn]] inline void die(const char* file, int line, const std::string& what) {
  std::fprintf(stderr, "FAIL rank %d %s:%d: %s\n", g_rank, file, line, what.c_str());
  std::fflush(stderr);
  std::_Exit(1);
}

#define CHECK(cond)                                                            \
  do {                                                                         \
    ++rccl_test::g_checks;                                                     \
    if (!(cond)) rccl_test::die(__FILE__, __LINE__, "CHECK(" #cond ") failed"); \
  } while (0)

#define CHECK_EQ(expected, actual)                                                                   \
  do {                                                                                               \
    ++rccl_test::g_checks;                                                                           \
    auto e_ = (expected);                                                                            \
    auto a_ = (actual);                                                                              \
    if (!(e_ == a_))                                                                                 \
      rccl_test::die(__FILE__, __LINE__, std::string(#actual " = ") + std::to_string(a_) +          \
                                             ", expected " + std::to_string(e_));                   \
  } while (0)

#define NCCL_OK(call)                                                                                \
  do {                                                                                               \
    ncclResult_t r_ = (call);                                                                        \
    if (r_ != ncclSuccess)                                                                           \
      rccl_test::die(__FILE__, __LINE__, std::string(#call " -> ") + ncclGetErrorString(r_) + ": " + \
                                             ncclGetLastError(nullptr));                            \
  } while (0)

#define HIP_OK(call)                                                                                      \
  do {                                                                                                    \
    hipError_t h_ = (call);                                                                               \
    if (h_ != hipSuccess) rccl_test::die(__FILE__, __LINE__, std::string(#call " -> ") + hipGetErrorName(h_)); \
  } while (0)

inline void store(ncclDataType_t t, void* base, size_t i, double v) {
  char* p = static_cast<char*>(base) + i * rccl_emu::type_size(t);
  switch (t) {
    case ncclInt8: { int8_t x = static_cast<int8_t>(v); std::memcpy(p, &x, 1); break; }
    case ncclUint8: { uint8_t x = static_cast<uint8_t>(v); std::memcpy(p, &x, 1); break; }
    case ncclInt32: { int32_t x = static_cast<int32_t>(v); std::memcpy(p, &x, 4); break; }
    case ncclUint32: { uint32_t x = static_cast<uint32_t>(v); std::memcpy(p, &x, 4); break; }
    case ncclInt64: { int64_t x = static_cast<int64_t>(v); std::memcpy(p, &x, 8); break; }
    case ncclUint64: { uint64_t x = static_cast<uint64_t>(v); std::memcpy(p, &x, 8); break; }
    case ncclFloat16: { uint16_t x = rccl_emu::half_from_double(v); std::memcpy(p, &x, 2); break; }
    case ncclFloat32: { float x = static_cast<float>(v); std::memcpy(p, &x, 4); break; }
    case ncclFloat64: std::memcpy(p, &v, 8); break;
    case ncclBfloat16: { uint16_t x = rccl_emu::bfloat16_from_double(v); std::memcpy(p, &x, 2); break; }
    case ncclFloat8e4m3: { uint8_t x = rccl_emu::fp8e4m3_from_double(v); std::memcpy(p, &x, 1); break; }
    case ncclFloat8e5m2: { uint8_t x = rccl_emu::fp8e5m2_from_double(v); std::memcpy(p, &x, 1); break; }
    default: die(__FILE__, __LINE__, "bad type");
  }
}

inline double load(ncclDataType_t t, const void* base, size_t i) {
  const char* p = static_cast<const char*>(base) + i * rccl_emu::type_size(t);
  switch (t) {
    case ncclInt8: { int8_t x; std::memcpy(&x, p, 1); return x; }
    case ncclUint8: { uint8_t x; std::memcpy(&x, p, 1); return x; }
    case ncclInt32: { int32_t x; std::memcpy(&x, p, 4); return x; }
    case ncclUint32: { uint32_t x; std::memcpy(&x, p, 4); return x; }
    case ncclInt64: { int64_t x; std::memcpy(&x, p, 8); return static_cast<double>(x); }
    case ncclUint64: { uint64_t x; std::memcpy(&x, p, 8); return static_cast<double>(x); }
    case ncclFloat16: { uint16_t x; std::memcpy(&x, p, 2); return rccl_emu::half_to_double(x); }
    case ncclFloat32: { float x; std::memcpy(&x, p, 4); return x; }
    case ncclFloat64: { double x; std::memcpy(&x, p, 8); return x; }
    case ncclBfloat16: { uint16_t x; std::memcpy(&x, p, 2); return rccl_emu::bfloat16_to_double(x); }
    case ncclFloat8e4m3: { uint8_t x; std::memcpy(&x, p, 1); return rccl_emu::fp8e4m3_to_double(x); }
    case ncclFloat8e5m2: { uint8_t x; std::memcpy(&x, p, 1); return rccl_emu::fp8e5m2_to_double(x); }
    default: die(__FILE__, __LINE__, "bad type");
  }
}

// Rank 0 publishes the id in a file named after the job; the others wait for it.
inline ncclUniqueId share_unique_id(int rank, const std::string& job) {
  std::string path = "/tmp/rccl-emu-test-" + job + ".id";
  ncclUniqueId id;
  if (rank == 0) {
    NCCL_OK(ncclGetUniqueId(&id));
    std::string tmp = path + ".tmp";
    {
      std::ofstream out(tmp, std::ios::binary);
      out.write(id.internal, sizeof id.internal);
    }
    CHECK(std::rename(tmp.c_str(), path.c_str()) == 0);
    return id;
  }
  for (int i = 0; i < 30000; ++i) {
    std::ifstream in(path, std::ios::binary);
    if (in && in.read(id.internal, sizeof id.internal)) return id;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  die(__FILE__, __LINE__, "rank 0 never published the unique id in " + path);
}

inline void remove_shared_id(const std::string& job) {
  std::remove(("/tmp/rccl-emu-test-" + job + ".id").c_str());
}

// A communicator over the processes of a rocshmem-emu-run job (RANK, WORLD_SIZE, ROCSHMEM_EMU_JOB_ID); the id
// file is gone once every rank joined.
struct LaunchedComm {
  int me = 0;
  int n = 0;
  ncclComm_t comm = nullptr;
};

inline LaunchedComm join_launched_job() {
  LaunchedComm c;
  c.me = g_rank = std::atoi(std::getenv("RANK"));
  c.n = std::atoi(std::getenv("WORLD_SIZE"));
  std::string job = std::getenv("ROCSHMEM_EMU_JOB_ID");
  ncclUniqueId id = share_unique_id(c.me, job);
  NCCL_OK(ncclCommInitRank(&c.comm, c.n, id, c.me));
  if (c.me == 0) remove_shared_id(job);  // every rank has joined: nobody reads the file any more
  return c;
}

}  // namespace rccl_test
