// Single-process tests of the CPU RCCL (ctest rccl_<case>): N virtual devices in one process
// (ROCSHMEM_EMU_DEVICES=4), driven from one thread with groups, as ncclCommInitAll users do.
//   single_process_test <case>
#include <atomic>
#include <chrono>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "rccl_test.hpp"

using namespace rccl_test;
using Clock = std::chrono::steady_clock;

namespace {

struct Ranks {
  std::vector<ncclComm_t> comms;
  std::vector<hipStream_t> streams;
  explicit Ranks(int n) : comms(n), streams(n) {
    NCCL_OK(ncclCommInitAll(comms.data(), n, nullptr));
    for (int i = 0; i < n; ++i) {
      HIP_OK(hipSetDevice(i));
      HIP_OK(hipStreamCreate(&streams[i]));
    }
    HIP_OK(hipSetDevice(0));
  }
  ~Ranks() {
    for (ncclComm_t c : comms) NCCL_OK(ncclCommDestroy(c));
    for (size_t i = 0; i < streams.size(); ++i) {
      (void)hipSetDevice(static_cast<int>(i));
      (void)hipStreamDestroy(streams[i]);
    }
    (void)hipSetDevice(0);
  }
  void sync() {
    for (size_t i = 0; i < streams.size(); ++i) HIP_OK(hipStreamSynchronize(streams[i]));
  }
};

std::vector<float*> device_floats(int n, size_t count, std::function<float(int, size_t)> init) {
  std::vector<float*> out(n);
  for (int r = 0; r < n; ++r) {
    HIP_OK(hipMalloc(reinterpret_cast<void**>(&out[r]), count * sizeof(float)));
    std::vector<float> h(count);
    for (size_t i = 0; i < count; ++i) h[i] = init(r, i);
    HIP_OK(hipMemcpy(out[r], h.data(), count * sizeof(float), hipMemcpyHostToDevice));
  }
  return out;
}

std::vector<float> host_copy(const float* p, size_t count) {
  std::vector<float> h(count);
  HIP_OK(hipMemcpy(h.data(), p, count * sizeof(float), hipMemcpyDeviceToHost));
  return h;
}

void free_all(std::vector<float*>& v) {
  for (float* p : v) HIP_OK(hipFree(p));
}

bool contains(const char* text, const char* part) { return std::strstr(text, part) != nullptr; }

// ---- cases ---------------------------------------------------------------------------------------

void codecs() {
  using namespace rccl_emu;
  CHECK_EQ(0x3C00, half_from_double(1.0));
  CHECK_EQ(0xC000, half_from_double(-2.0));
  CHECK_EQ(0x7BFF, half_from_double(65504.0));
  CHECK_EQ(0x7C00, half_from_double(65520.0));            // rounds past the largest half: infinity
  CHECK_EQ(0x3C00, half_from_double(1.0 + 1.0 / 2048));   // tie: to even
  CHECK_EQ(0x3C02, half_from_double(1.0 + 3.0 / 2048));   // tie: to even (up)
  CHECK_EQ(0x0001, half_from_double(5.960464477539063e-8));  // smallest subnormal
  CHECK(half_to_double(0x7E00) != half_to_double(0x7E00));   // NaN
  CHECK_EQ(0x3F80, bfloat16_from_double(1.0));
  CHECK_EQ(0x4049, bfloat16_from_double(3.140625));
  CHECK_EQ(0x3F80, bfloat16_from_double(1.00390625));     // tie (1 + 2^-8): to even
  CHECK_EQ(0x38, fp8e4m3_from_double(1.0));
  CHECK_EQ(0x7E, fp8e4m3_from_double(448.0));
  CHECK_EQ(0x7E, fp8e4m3_from_double(10000.0));           // saturates
  CHECK_EQ(0x7F, fp8e4m3_from_double(std::nan("")));
  CHECK_EQ(0x01, fp8e4m3_from_double(std::ldexp(1.0, -9)));  // smallest subnormal
  CHECK_EQ(448.0, fp8e4m3_to_double(0x7E));
  CHECK_EQ(0x3C, fp8e5m2_from_double(1.0));
  CHECK_EQ(0x7B, fp8e5m2_from_double(57344.0));
  CHECK_EQ(0x7B, fp8e5m2_from_double(1e9));                // saturates
  CHECK_EQ(0x48, fp8e5m2_from_double(9.0));                // 9 is a tie between 8 and 10: to even (8)
  CHECK_EQ(12.0, fp8e5m2_to_double(fp8e5m2_from_double(11.0)));
  CHECK(std::isinf(fp8e5m2_to_double(0x7C)));
}

void api_errors() {
  int version = 0;
  NCCL_OK(ncclGetVersion(&version));
  CHECK_EQ(NCCL_VERSION_CODE, version);
  CHECK_EQ(22707, version);
  CHECK_EQ(static_cast<int>(ncclInvalidArgument), static_cast<int>(ncclGetVersion(nullptr)));
  CHECK(std::strcmp(ncclGetErrorString(ncclSuccess), "no error") == 0);
  CHECK(std::strcmp(ncclGetErrorString(ncclRemoteError), "remote process exited or there was a network error") == 0);
  CHECK(std::strcmp(ncclGetErrorString(static_cast<ncclResult_t>(99)), "unknown result code") == 0);

  CHECK_EQ(static_cast<int>(ncclInvalidUsage), static_cast<int>(ncclGroupEnd()));
  CHECK(contains(ncclGetLastError(nullptr), "ncclGroupEnd"));
  int count = 0;
  CHECK_EQ(static_cast<int>(ncclInvalidArgument), static_cast<int>(ncclCommCount(nullptr, &count)));
  CHECK(contains(ncclGetLastError(nullptr), "CommCount"));
  CHECK_EQ(static_cast<int>(ncclSuccess), static_cast<int>(ncclCommDestroy(nullptr)));

  ncclUniqueId foreign;
  std::memset(&foreign, 0, sizeof foreign);
  ncclComm_t comm = reinterpret_cast<ncclComm_t>(0x1);
  CHECK_EQ(static_cast<int>(ncclInvalidArgument), static_cast<int>(ncclCommInitRank(&comm, 1, foreign, 0)));
  CHECK(comm == nullptr);
  CHECK(contains(ncclGetLastError(nullptr), "unique id"));
  ncclUniqueId id;
  NCCL_OK(ncclGetUniqueId(&id));
  CHECK_EQ(static_cast<int>(ncclInvalidArgument), static_cast<int>(ncclCommInitRank(&comm, 2, id, 2)));
  CHECK_EQ(static_cast<int>(ncclInvalidArgument), static_cast<int>(ncclCommInitRank(&comm, 0, id, 0)));
  ncclConfig_t config;
  std::memset(&config, 0, sizeof config);
  CHECK_EQ(static_cast<int>(ncclInvalidArgument), static_cast<int>(ncclCommInitRankConfig(&comm, 1, id, 0, &config)));

  // A communicator of one rank: bad arguments are errors, never crashes.
  NCCL_OK(ncclCommInitRank(&comm, 1, id, 0));
  float* buf;
  HIP_OK(hipMalloc(reinterpret_cast<void**>(&buf), 64));
  CHECK_EQ(static_cast<int>(ncclInvalidArgument), static_cast<int>(ncclAllReduce(buf, buf, 4, static_cast<ncclDataType_t>(42), ncclSum, comm, nullptr)));
  CHECK(contains(ncclGetLastError(nullptr), "invalid type 42"));
  CHECK_EQ(static_cast<int>(ncclInvalidArgument), static_cast<int>(ncclAllReduce(buf, buf, 4, ncclFloat, static_cast<ncclRedOp_t>(77), comm, nullptr)));
  CHECK_EQ(static_cast<int>(ncclInvalidArgument), static_cast<int>(ncclAllReduce(nullptr, buf, 4, ncclFloat, ncclSum, comm, nullptr)));
  CHECK_EQ(static_cast<int>(ncclInvalidArgument), static_cast<int>(ncclBroadcast(buf, buf, 4, ncclFloat, 1, comm, nullptr)));
  CHECK(contains(ncclGetLastError(nullptr), "invalid root 1"));
  CHECK_EQ(static_cast<int>(ncclInvalidArgument), static_cast<int>(ncclSend(buf, 4, ncclFloat, -1, comm, nullptr)));
  CHECK_EQ(static_cast<int>(ncclInvalidArgument), static_cast<int>(ncclAllToAll(buf, buf, 4, ncclFloat, comm, nullptr)));
  CHECK_EQ(static_cast<int>(ncclInvalidArgument), static_cast<int>(ncclRedOpDestroy(ncclSum, comm)));
  CHECK_EQ(static_cast<int>(ncclInvalidArgument), static_cast<int>(ncclAllReduce(buf, buf, 4, ncclFloat, ncclSum,
                                                                                 reinterpret_cast<ncclComm_t>(buf), nullptr)));
  // Zero elements: valid, nothing moves.
  NCCL_OK(ncclAllReduce(buf, buf, 0, ncclFloat, ncclSum, comm, nullptr));
  // A one-rank all-reduce on the null stream is a copy.
  float ones[4] = {1, 2, 3, 4}, out[4] = {};
  HIP_OK(hipMemcpy(buf, ones, sizeof ones, hipMemcpyHostToDevice));
  NCCL_OK(ncclAllReduce(buf, buf + 4, 4, ncclFloat, ncclSum, comm, nullptr));
  HIP_OK(hipStreamSynchronize(nullptr));
  HIP_OK(hipMemcpy(out, buf + 4, sizeof out, hipMemcpyDeviceToHost));
  for (int i = 0; i < 4; ++i) CHECK_EQ(ones[i], out[i]);
  NCCL_OK(ncclCommFinalize(comm));
  CHECK_EQ(static_cast<int>(ncclInvalidUsage), static_cast<int>(ncclAllReduce(buf, buf, 4, ncclFloat, ncclSum, comm, nullptr)));
  NCCL_OK(ncclCommDestroy(comm));
  CHECK_EQ(static_cast<int>(ncclInvalidArgument), static_cast<int>(ncclCommCount(comm, &count)));  // stale handle
  HIP_OK(hipFree(buf));
}

void init_all_split_shrink() {
  const int n = 4;
  const size_t count = 10;
  Ranks ranks(n);
  for (int r = 0; r < n; ++r) {
    int v = -1;
    NCCL_OK(ncclCommUserRank(ranks.comms[r], &v));
    CHECK_EQ(r, v);
    NCCL_OK(ncclCommCuDevice(ranks.comms[r], &v));
    CHECK_EQ(r, v);
    NCCL_OK(ncclCommCount(ranks.comms[r], &v));
    CHECK_EQ(n, v);
  }
  auto data = device_floats(n, count, [](int r, size_t i) { return float(r * 100 + i); });
  NCCL_OK(ncclGroupStart());
  for (int r = 0; r < n; ++r) NCCL_OK(ncclAllReduce(data[r], data[r], count, ncclFloat, ncclSum, ranks.comms[r], ranks.streams[r]));
  NCCL_OK(ncclGroupEnd());
  ranks.sync();
  for (int r = 0; r < n; ++r) {
    auto h = host_copy(data[r], count);
    for (size_t i = 0; i < count; ++i) CHECK_EQ(float(600 + 4 * i), h[i]);
  }

  // Split: even and odd ranks, ordered by descending key (reversed order inside each color).
  std::vector<ncclComm_t> split(n);
  NCCL_OK(ncclGroupStart());
  for (int r = 0; r < n; ++r) NCCL_OK(ncclCommSplit(ranks.comms[r], r % 2, -r, &split[r], nullptr));
  NCCL_OK(ncclGroupEnd());
  for (int r = 0; r < n; ++r) {
    int size = 0, rank = -1;
    NCCL_OK(ncclCommCount(split[r], &size));
    NCCL_OK(ncclCommUserRank(split[r], &rank));
    CHECK_EQ(2, size);
    CHECK_EQ(r < 2 ? 1 : 0, rank);
  }
  auto part = device_floats(n, 1, [](int r, size_t) { return float(1 << r); });
  NCCL_OK(ncclGroupStart());
  for (int r = 0; r < n; ++r) NCCL_OK(ncclAllReduce(part[r], part[r], 1, ncclFloat, ncclSum, split[r], ranks.streams[r]));
  NCCL_OK(ncclGroupEnd());
  ranks.sync();
  for (int r = 0; r < n; ++r) CHECK_EQ(r % 2 ? 2.0f + 8.0f : 1.0f + 4.0f, host_copy(part[r], 1)[0]);

  // NCCL_SPLIT_NOCOLOR: rank 3 takes part and gets no communicator.
  std::vector<ncclComm_t> some(n);
  NCCL_OK(ncclGroupStart());
  for (int r = 0; r < n; ++r) NCCL_OK(ncclCommSplit(ranks.comms[r], r == 3 ? NCCL_SPLIT_NOCOLOR : 0, r, &some[r], nullptr));
  NCCL_OK(ncclGroupEnd());
  CHECK(some[3] == nullptr);
  int size = 0;
  NCCL_OK(ncclCommCount(some[0], &size));
  CHECK_EQ(3, size);

  // Shrink: rank 1 is excluded (it does not call); the others renumber 0, 1, 2.
  std::vector<ncclComm_t> shrunk(n, nullptr);
  int excluded[] = {1};
  NCCL_OK(ncclGroupStart());
  for (int r : {0, 2, 3}) NCCL_OK(ncclCommShrink(ranks.comms[r], excluded, 1, &shrunk[r], nullptr, NCCL_SHRINK_DEFAULT));
  NCCL_OK(ncclGroupEnd());
  int rank = -1;
  NCCL_OK(ncclCommUserRank(shrunk[3], &rank));
  CHECK_EQ(2, rank);
  NCCL_OK(ncclCommCount(shrunk[0], &size));
  CHECK_EQ(3, size);
  CHECK_EQ(static_cast<int>(ncclInvalidArgument),
           static_cast<int>(ncclCommShrink(ranks.comms[1], excluded, 1, &shrunk[1], nullptr, NCCL_SHRINK_DEFAULT)));
  NCCL_OK(ncclGroupStart());
  for (int r : {0, 2, 3}) NCCL_OK(ncclAllReduce(part[r], part[r], 1, ncclFloat, ncclMax, shrunk[r], ranks.streams[r]));
  NCCL_OK(ncclGroupEnd());
  ranks.sync();
  for (int r : {0, 2, 3}) CHECK_EQ(10.0f, host_copy(part[r], 1)[0]);  // max of 5, 5, 10

  for (ncclComm_t c : split) NCCL_OK(ncclCommDestroy(c));
  for (ncclComm_t c : some) NCCL_OK(ncclCommDestroy(c));
  for (ncclComm_t c : shrunk) NCCL_OK(ncclCommDestroy(c));
  free_all(data);
  free_all(part);
}

void group_ring() {
  const int n = 4;
  const size_t count = 600'000;  // 2.4 MB per message: ten times a channel ring
  Ranks ranks(n);
  auto out = device_floats(n, count, [](int r, size_t i) { return float(r * 1'000'000 + i); });
  auto in = device_floats(n, count, [](int, size_t) { return -1.0f; });
  auto self = device_floats(n, 3, [](int, size_t) { return 0.0f; });
  auto first = device_floats(n, 2, [](int r, size_t) { return float(10 + r); });
  auto second = device_floats(n, 2, [](int r, size_t) { return float(20 + r); });
  auto got1 = device_floats(n, 2, [](int, size_t) { return 0.0f; });
  auto got2 = device_floats(n, 2, [](int, size_t) { return 0.0f; });
  NCCL_OK(ncclGroupStart());
  for (int r = 0; r < n; ++r) {
    int next = (r + 1) % n, prev = (r + n - 1) % n;
    // The receive is posted before the send on every rank: only fused progress avoids a deadlock.
    NCCL_OK(ncclRecv(in[r], count, ncclFloat, prev, ranks.comms[r], ranks.streams[r]));
    NCCL_OK(ncclSend(out[r], count, ncclFloat, next, ranks.comms[r], ranks.streams[r]));
    NCCL_OK(ncclSend(out[r], 3, ncclFloat, r, ranks.comms[r], ranks.streams[r]));   // to itself
    NCCL_OK(ncclRecv(self[r], 3, ncclFloat, r, ranks.comms[r], ranks.streams[r]));
    // Two messages to the same peer arrive in the order they were sent.
    NCCL_OK(ncclSend(first[r], 2, ncclFloat, next, ranks.comms[r], ranks.streams[r]));
    NCCL_OK(ncclSend(second[r], 2, ncclFloat, next, ranks.comms[r], ranks.streams[r]));
    NCCL_OK(ncclRecv(got1[r], 2, ncclFloat, prev, ranks.comms[r], ranks.streams[r]));
    NCCL_OK(ncclRecv(got2[r], 2, ncclFloat, prev, ranks.comms[r], ranks.streams[r]));
  }
  NCCL_OK(ncclGroupEnd());
  ranks.sync();
  for (int r = 0; r < n; ++r) {
    int prev = (r + n - 1) % n;
    auto h = host_copy(in[r], count);
    for (size_t i = 0; i < count; i += 1237) CHECK_EQ(float(prev * 1'000'000 + i), h[i]);
    CHECK_EQ(float(prev * 1'000'000 + count - 1), h[count - 1]);
    auto s = host_copy(self[r], 3);
    CHECK_EQ(float(r * 1'000'000 + 2), s[2]);
    CHECK_EQ(float(10 + prev), host_copy(got1[r], 2)[1]);
    CHECK_EQ(float(20 + prev), host_copy(got2[r], 2)[1]);
  }
  for (auto* v : {&out, &in, &self, &first, &second, &got1, &got2}) free_all(*v);
}

void abort_hung() {
  Ranks ranks(2);
  auto data = device_floats(2, 8, [](int r, size_t) { return float(r + 1); });
  // Rank 0 starts an all-reduce that rank 1 never joins: its stream hangs.
  NCCL_OK(ncclAllReduce(data[0], data[0], 8, ncclFloat, ncclSum, ranks.comms[0], ranks.streams[0]));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  CHECK_EQ(static_cast<int>(hipErrorNotReady), static_cast<int>(hipStreamQuery(ranks.streams[0])));
  ncclResult_t async = ncclInternalError;
  NCCL_OK(ncclCommGetAsyncError(ranks.comms[0], &async));
  CHECK_EQ(static_cast<int>(ncclSuccess), static_cast<int>(async));
  auto start = Clock::now();
  NCCL_OK(ncclCommAbort(ranks.comms[0]));
  HIP_OK(hipStreamSynchronize(ranks.streams[0]));  // the cancelled operation let go of the stream
  CHECK(Clock::now() - start < std::chrono::seconds(2));
  ranks.comms[0] = nullptr;
  // Rank 1 now gets a remote error, not a hang: its peer aborted.
  NCCL_OK(ncclAllReduce(data[1], data[1], 8, ncclFloat, ncclSum, ranks.comms[1], ranks.streams[1]));
  HIP_OK(hipStreamSynchronize(ranks.streams[1]));
  NCCL_OK(ncclCommGetAsyncError(ranks.comms[1], &async));
  CHECK_EQ(static_cast<int>(ncclRemoteError), static_cast<int>(async));
  CHECK(contains(ncclGetLastError(nullptr), "aborted"));
  CHECK_EQ(static_cast<int>(ncclRemoteError), static_cast<int>(ncclAllReduce(data[1], data[1], 8, ncclFloat, ncclSum, ranks.comms[1], ranks.streams[1])));
  NCCL_OK(ncclCommAbort(ranks.comms[1]));
  ranks.comms[1] = nullptr;
  free_all(data);
}

void mismatch() {
  Ranks ranks(2);
  auto data = device_floats(2, 4, [](int r, size_t) { return float(r); });
  NCCL_OK(ncclGroupStart());
  NCCL_OK(ncclAllReduce(data[0], data[0], 4, ncclFloat, ncclSum, ranks.comms[0], ranks.streams[0]));
  NCCL_OK(ncclBroadcast(data[1], data[1], 4, ncclFloat, 0, ranks.comms[1], ranks.streams[1]));
  NCCL_OK(ncclGroupEnd());
  ranks.sync();
  ncclResult_t e0, e1;
  NCCL_OK(ncclCommGetAsyncError(ranks.comms[0], &e0));
  NCCL_OK(ncclCommGetAsyncError(ranks.comms[1], &e1));
  CHECK(e0 != ncclSuccess);
  CHECK(e1 != ncclSuccess);
  CHECK(e0 == ncclInvalidUsage || e1 == ncclInvalidUsage);
  for (ncclComm_t& c : ranks.comms) {
    NCCL_OK(ncclCommAbort(c));
    c = nullptr;
  }
  free_all(data);
}

// Beyond NCCL: the same collective with a different reduction or data type (equal sizes) is an
// error naming both, instead of a silently wrong result; so is a send/recv type mismatch.
// `alternative`: a second acceptable last error (the text is process-wide: with 3 ranks in one process, a rank
// that waited for the failing one may report after it).
void expect_signature_mismatch(const std::function<void(Ranks&, std::vector<float*>&)>& calls, const char* text,
                               int n = 2, const char* alternative = nullptr) {
  Ranks ranks(n);
  auto data = device_floats(n, 4, [](int r, size_t) { return float(r + 1); });
  NCCL_OK(ncclGroupStart());
  calls(ranks, data);
  NCCL_OK(ncclGroupEnd());
  ranks.sync();
  bool invalid_usage = false;
  for (int r = 0; r < n; ++r) {
    ncclResult_t e = ncclSuccess;
    NCCL_OK(ncclCommGetAsyncError(ranks.comms[r], &e));
    invalid_usage |= e == ncclInvalidUsage;
  }
  CHECK(invalid_usage);
  CHECK(contains(ncclGetLastError(nullptr), text) || (alternative && contains(ncclGetLastError(nullptr), alternative)));
  for (ncclComm_t& c : ranks.comms) {
    NCCL_OK(ncclCommAbort(c));
    c = nullptr;
  }
  free_all(data);
}

void mismatch_signature() {
  expect_signature_mismatch(
      [](Ranks& ranks, std::vector<float*>& data) {
        NCCL_OK(ncclAllReduce(data[0], data[0], 4, ncclFloat, ncclSum, ranks.comms[0], ranks.streams[0]));
        NCCL_OK(ncclAllReduce(data[1], data[1], 4, ncclFloat, ncclMax, ranks.comms[1], ranks.streams[1]));
      },
      "reduction ");
  expect_signature_mismatch(
      [](Ranks& ranks, std::vector<float*>& data) {
        NCCL_OK(ncclAllReduce(data[0], data[0], 4, ncclFloat, ncclSum, ranks.comms[0], ranks.streams[0]));
        NCCL_OK(ncclAllReduce(data[1], data[1], 4, ncclInt32, ncclSum, ranks.comms[1], ranks.streams[1]));
      },
      "data type ");
  expect_signature_mismatch(
      [](Ranks& ranks, std::vector<float*>& data) {
        NCCL_OK(ncclSend(data[0], 4, ncclFloat, 1, ranks.comms[0], ranks.streams[0]));
        NCCL_OK(ncclRecv(data[1], 4, ncclUint32, 0, ranks.comms[1], ranks.streams[1]));
      },
      "(the emulator checks this; NCCL and RCCL do not)");
  // Ranks 0 and 1 broadcast from rank 0, rank 2 from rank 1: rank 2 sees rank 0's data arrive instead; rank 0,
  // waiting for rank 2's acknowledgement, then reports that rank 2 failed.
  expect_signature_mismatch(
      [](Ranks& ranks, std::vector<float*>& data) {
        for (int r = 0; r < 3; ++r)
          NCCL_OK(ncclBroadcast(data[r], data[r], 4, ncclFloat, r == 2 ? 1 : 0, ranks.comms[r], ranks.streams[r]));
      },
      "rank 2 waits for ncclBroadcast data from rank 1 (root 1 here) but rank 0 sent it data of the same collective", 3,
      "rank 0: peer rank 2 (pid");
  // Each of two ranks believes it is the broadcast's root: both receive the other's data where they expect an
  // acknowledgement, and report both roots.
  expect_signature_mismatch(
      [](Ranks& ranks, std::vector<float*>& data) {
        for (int r = 0; r < 2; ++r)
          NCCL_OK(ncclBroadcast(data[r], data[r], 4, ncclFloat, r, ranks.comms[r], ranks.streams[r]));
      },
      "ncclBroadcast with root ");
}

// Beyond NCCL (which hangs): ranks that can only wait for each other are reported within a few
// check periods, naming what each waits for, instead of hanging until a launcher's timeout.
void expect_deadlock(int n, const std::function<void(Ranks&, std::vector<float*>&)>& calls,
                     const std::vector<const char*>& texts) {
  Ranks ranks(n);
  auto data = device_floats(n, 4, [](int r, size_t) { return float(r + 1); });
  auto start = Clock::now();
  NCCL_OK(ncclGroupStart());
  calls(ranks, data);
  NCCL_OK(ncclGroupEnd());
  ranks.sync();
  CHECK(Clock::now() - start < std::chrono::seconds(10));
  int invalid_usage = 0;
  for (int r = 0; r < n; ++r) {
    ncclResult_t e = ncclSuccess;
    NCCL_OK(ncclCommGetAsyncError(ranks.comms[r], &e));
    CHECK(e != ncclSuccess);
    invalid_usage += e == ncclInvalidUsage;
  }
  CHECK(invalid_usage >= 1);
  const char* last = ncclGetLastError(nullptr);
  std::printf("reported: %s\n", last);
  CHECK(contains(last, "deadlock"));
  for (const char* text : texts) CHECK(contains(last, text));
  for (ncclComm_t& c : ranks.comms) {
    NCCL_OK(ncclCommAbort(c));
    c = nullptr;
  }
  free_all(data);
}

void deadlock_roots() {
  // Every rank believes it is the root of the reduce: all receive, nobody sends.
  expect_deadlock(3, [](Ranks& ranks, std::vector<float*>& data) {
    for (int r = 0; r < 3; ++r)
      NCCL_OK(ncclReduce(data[r], data[r], 4, ncclFloat, ncclSum, r, ranks.comms[r], ranks.streams[r]));
  }, {"ncclReduce #1 with root ", "receives from ranks ", "the ranks disagree on a root"});
}

void deadlock_peers() {
  // Both ranks receive from each other and neither sends.
  expect_deadlock(2, [](Ranks& ranks, std::vector<float*>& data) {
    NCCL_OK(ncclRecv(data[0], 4, ncclFloat, 1, ranks.comms[0], ranks.streams[0]));
    NCCL_OK(ncclRecv(data[1], 4, ncclFloat, 0, ranks.comms[1], ranks.streams[1]));
  }, {"ncclSend/ncclRecv"});
  // A ring shift with the wrong direction on the receive side: rank r sends to r+1 and receives
  // from r+1, so every rank waits for a rank that sent elsewhere and holds data nobody receives.
  expect_deadlock(3, [](Ranks& ranks, std::vector<float*>& data) {
    for (int r = 0; r < 3; ++r) {
      NCCL_OK(ncclSend(data[r], 2, ncclFloat, (r + 1) % 3, ranks.comms[r], ranks.streams[r]));
      NCCL_OK(ncclRecv(data[r] + 2, 2, ncclFloat, (r + 1) % 3, ranks.comms[r], ranks.streams[r]));
    }
  }, {"has unreceived ncclSend/ncclRecv data from rank"});
}

// The check never fires on a legal program: a receiver that waits long for a late sender (its
// stream is busy elsewhere, outside the engine) gets the data.
void late_peer_is_no_deadlock() {
  Ranks ranks(2);
  auto data = device_floats(2, 4, [](int r, size_t) { return float(r + 1); });
  HIP_OK(hipLaunchHostFunc(ranks.streams[1], [](void*) { std::this_thread::sleep_for(std::chrono::milliseconds(400)); },
                           nullptr));
  NCCL_OK(ncclGroupStart());
  NCCL_OK(ncclRecv(data[0], 4, ncclFloat, 1, ranks.comms[0], ranks.streams[0]));
  NCCL_OK(ncclSend(data[1], 4, ncclFloat, 0, ranks.comms[1], ranks.streams[1]));
  NCCL_OK(ncclGroupEnd());
  ranks.sync();
  for (int r = 0; r < 2; ++r) {
    ncclResult_t e = ncclInternalError;
    NCCL_OK(ncclCommGetAsyncError(ranks.comms[r], &e));
    CHECK_EQ(static_cast<int>(ncclSuccess), static_cast<int>(e));
  }
  CHECK_EQ(2.0f, host_copy(data[0], 4)[3]);
  free_all(data);
}

void sleep_then_fill(void* arg) {
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  auto* p = static_cast<float*>(arg);
  p[0] = 5.0f;
}

void stream_order() {
  Ranks ranks(2);
  auto data = device_floats(2, 1, [](int, size_t) { return 1.0f; });
  // Work queued before the collective on the same stream runs first, even when it is slow.
  HIP_OK(hipLaunchHostFunc(ranks.streams[0], sleep_then_fill, data[0]));
  NCCL_OK(ncclGroupStart());
  for (int r = 0; r < 2; ++r) NCCL_OK(ncclAllReduce(data[r], data[r], 1, ncclFloat, ncclSum, ranks.comms[r], ranks.streams[r]));
  NCCL_OK(ncclGroupEnd());
  ranks.sync();
  CHECK_EQ(6.0f, host_copy(data[0], 1)[0]);
  CHECK_EQ(6.0f, host_copy(data[1], 1)[0]);

  // One communicator, two streams in one group: the slow stream's earlier work is waited for, and
  // that stream is held until the fused operation is done.
  hipStream_t other;
  HIP_OK(hipStreamCreate(&other));
  auto second = device_floats(2, 1, [](int, size_t) { return 1.0f; });
  HIP_OK(hipLaunchHostFunc(other, sleep_then_fill, second[0]));
  NCCL_OK(ncclGroupStart());
  NCCL_OK(ncclAllReduce(data[0], data[0], 1, ncclFloat, ncclSum, ranks.comms[0], ranks.streams[0]));
  NCCL_OK(ncclAllReduce(second[0], second[0], 1, ncclFloat, ncclSum, ranks.comms[0], other));
  NCCL_OK(ncclAllReduce(data[1], data[1], 1, ncclFloat, ncclSum, ranks.comms[1], ranks.streams[1]));
  NCCL_OK(ncclAllReduce(second[1], second[1], 1, ncclFloat, ncclSum, ranks.comms[1], ranks.streams[1]));
  NCCL_OK(ncclGroupEnd());
  HIP_OK(hipStreamSynchronize(other));  // only the second stream: the whole group is done
  CHECK_EQ(6.0f, host_copy(second[0], 1)[0]);
  CHECK_EQ(12.0f, host_copy(data[0], 1)[0]);
  ranks.sync();
  HIP_OK(hipStreamDestroy(other));
  free_all(data);
  free_all(second);
}

void finalize_threads() {
  Ranks ranks(2);
  auto data = device_floats(2, 16, [](int r, size_t i) { return float(r + i); });
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int r = 0; r < 2; ++r) {
    threads.emplace_back([&, r] {
      HIP_OK(hipSetDevice(r));
      for (int k = 0; k < 20; ++k) NCCL_OK(ncclAllReduce(data[r], data[r], 16, ncclFloat, ncclSum, ranks.comms[r], ranks.streams[r]));
      NCCL_OK(ncclCommFinalize(ranks.comms[r]));  // flushes the 20 queued operations, then meets the peer
      // Read the emulator's device memory directly, without any stream synchronization: the 20
      // all-reduces must be complete once finalize returned.
      if (data[r][3] == float((2 * 3 + 1) * (1 << 19))) ++ok;
    });
  }
  for (auto& t : threads) t.join();
  CHECK_EQ(2, ok.load());
  // 20 doublings of (0 + i) + (1 + i).
  auto h = host_copy(data[0], 16);
  CHECK_EQ(float((2 * 3 + 1) * (1 << 19)), h[3]);
  free_all(data);
}

void finalize_in_group() {
  Ranks ranks(3);
  auto data = device_floats(3, 4, [](int r, size_t) { return float(r); });
  NCCL_OK(ncclGroupStart());
  for (int r = 0; r < 3; ++r) NCCL_OK(ncclAllReduce(data[r], data[r], 4, ncclFloat, ncclSum, ranks.comms[r], ranks.streams[r]));
  NCCL_OK(ncclGroupEnd());
  // One thread finalizes all three ranks: only possible because the meeting waits for ncclGroupEnd.
  NCCL_OK(ncclGroupStart());
  for (int r = 0; r < 3; ++r) NCCL_OK(ncclCommFinalize(ranks.comms[r]));
  NCCL_OK(ncclGroupEnd());
  for (int r = 0; r < 3; ++r) CHECK_EQ(3.0f, host_copy(data[r], 4)[3]);  // finalize flushed the queued work
  CHECK_EQ(static_cast<int>(ncclInvalidUsage),
           static_cast<int>(ncclAllReduce(data[0], data[0], 4, ncclFloat, ncclSum, ranks.comms[0], ranks.streams[0])));
  free_all(data);
}

void simulate_register() {
  Ranks ranks(2);
  auto data = device_floats(2, 4, [](int r, size_t) { return float(r + 1); });
  ncclSimInfo_t info;
  std::memset(&info, 0, sizeof info);
  CHECK_EQ(static_cast<int>(ncclInvalidArgument), static_cast<int>(ncclGroupSimulateEnd(&info)));
  info.size = sizeof info;
  info.magic = 0x74685283;
  info.version = NCCL_VERSION_CODE;
  info.estimatedTime = -1.0f;
  NCCL_OK(ncclGroupStart());
  for (int r = 0; r < 2; ++r) NCCL_OK(ncclAllReduce(data[r], data[r], 4, ncclFloat, ncclSum, ranks.comms[r], ranks.streams[r]));
  NCCL_OK(ncclGroupSimulateEnd(&info));
  ranks.sync();
  CHECK(info.estimatedTime > 0.0f);
  CHECK_EQ(1.0f, host_copy(data[0], 4)[0]);  // simulated: nothing ran

  void* handle = nullptr;
  NCCL_OK(ncclCommRegister(ranks.comms[0], data[0], 16, &handle));
  CHECK(handle != nullptr);
  NCCL_OK(ncclCommDeregister(ranks.comms[0], handle));
  CHECK_EQ(static_cast<int>(ncclInvalidArgument), static_cast<int>(ncclCommDeregister(ranks.comms[0], handle)));
  ncclWindow_t win = nullptr;
  NCCL_OK(ncclCommWindowRegister(ranks.comms[0], data[0], 16, &win, NCCL_WIN_COLL_SYMMETRIC));
  NCCL_OK(ncclCommWindowDeregister(ranks.comms[0], win));
  void* mem = nullptr;
  NCCL_OK(ncclMemAlloc(&mem, 4096));
  CHECK(mem != nullptr);
  NCCL_OK(ncclMemFree(mem));
  CHECK_EQ(static_cast<int>(ncclInvalidArgument), static_cast<int>(ncclMemAlloc(nullptr, 16)));
  free_all(data);
}

void init_all_errors() {
  ncclComm_t comms[8];
  int devices = 0;
  HIP_OK(hipGetDeviceCount(&devices));
  CHECK_EQ(static_cast<int>(ncclInvalidArgument), static_cast<int>(ncclCommInitAll(comms, devices + 1, nullptr)));
  CHECK(contains(ncclGetLastError(nullptr), "ROCSHMEM_EMU_DEVICES"));
  int duplicate[] = {0, 0};
  CHECK_EQ(static_cast<int>(ncclInvalidUsage), static_cast<int>(ncclCommInitAll(comms, 2, duplicate)));
  int reversed[] = {1, 0};
  NCCL_OK(ncclCommInitAll(comms, 2, reversed));
  int device = -1;
  NCCL_OK(ncclCommCuDevice(comms[0], &device));
  CHECK_EQ(1, device);
  for (int r = 0; r < 2; ++r) NCCL_OK(ncclCommDestroy(comms[r]));
}

}  // namespace

// A bad ROCSHMEM_EMU_BOOTSTRAP_TIMEOUT fails the init, as it does in the rocSHMEM emulator (one
// parse in emu/common/settings.hpp), instead of a warning and a silent 60 s.
void bad_bootstrap_timeout() {
  setenv("ROCSHMEM_EMU_BOOTSTRAP_TIMEOUT", "soon", 1);
  ncclUniqueId id;
  NCCL_OK(ncclGetUniqueId(&id));
  ncclComm_t comm = reinterpret_cast<ncclComm_t>(0x1);
  CHECK_EQ(static_cast<int>(ncclInvalidArgument), static_cast<int>(ncclCommInitRank(&comm, 1, id, 0)));
  CHECK(comm == nullptr);
  CHECK(contains(ncclGetLastError(nullptr), "ncclCommInitRank : invalid ROCSHMEM_EMU_BOOTSTRAP_TIMEOUT='soon'"));
}

int main(int argc, char** argv) {
  const std::map<std::string, void (*)()> cases = {
      {"codecs", codecs},
      {"api_errors", api_errors},
      {"init_all_split_shrink", init_all_split_shrink},
      {"group_ring", group_ring},
      {"abort_hung", abort_hung},
      {"mismatch", mismatch},
      {"mismatch_signature", mismatch_signature},
      {"deadlock_roots", deadlock_roots},
      {"deadlock_peers", deadlock_peers},
      {"late_peer_is_no_deadlock", late_peer_is_no_deadlock},
      {"stream_order", stream_order},
      {"finalize_threads", finalize_threads},
      {"finalize_in_group", finalize_in_group},
      {"simulate_register", simulate_register},
      {"init_all_errors", init_all_errors},
      {"bad_bootstrap_timeout", bad_bootstrap_timeout},
  };
  auto it = argc == 2 ? cases.find(argv[1]) : cases.end();
  if (it == cases.end()) {
    std::fprintf(stderr, "usage: %s <case>\n", argv[0]);
    return 2;
  }
  it->second();
  std::printf("%s: %ld checks passed\n", argv[1], g_checks);
  return 0;
}
