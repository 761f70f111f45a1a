// Conformance of every collective, for every data type and every reduction operator, between N
// processes (run by rocshmem-emu-run with N = 2 and 4). Values are chosen so that every partial
// result is exactly representable in every type (FP8 included): the expected results are exact.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "rccl_test.hpp"

using namespace rccl_test;

namespace {

enum OpChoice { kSum, kProd, kMax, kMin, kAvg, kPreMulHost, kPreMulDevice };
const OpChoice kAllOps[] = {kSum, kProd, kMax, kMin, kAvg, kPreMulHost, kPreMulDevice};
const char* op_name(OpChoice o) {
  static const char* names[] = {"sum", "prod", "max", "min", "avg", "premulsum(host)", "premulsum(device)"};
  return names[o];
}

struct Job {
  ncclComm_t comm;
  hipStream_t stream;
  int n;
  int me;
};

// A reduction input: 1 or 2, alternating with the index and the rank.
double v(int r, size_t i) { return 1.0 + static_cast<double>((i + r) % 2); }
// Data for the copying collectives: small integers (exact everywhere), distinct per rank and index.
double w(int r, size_t i) { return static_cast<double>((r + i) % 8); }
double scalar_of(int r) { return r % 2 ? 2.0 : 1.0; }

double expected_reduction(OpChoice o, ncclDataType_t t, int n, size_t k) {
  bool integer = !rccl_emu::is_floating(t);
  double acc = 0;
  for (int r = 0; r < n; ++r) {
    double c = v(r, k);
    if (o == kPreMulHost || o == kPreMulDevice) c *= scalar_of(r);
    if (o == kAvg && !integer) c /= n;
    if (r == 0) { acc = c; continue; }
    switch (o) {
      case kProd: acc *= c; break;
      case kMax: acc = std::max(acc, c); break;
      case kMin: acc = std::min(acc, c); break;
      default: acc += c; break;
    }
  }
  if (o == kAvg && integer) acc = std::trunc(acc / n);
  return acc;
}

double rounded(ncclDataType_t t, double x) {
  char cell[8];
  store(t, cell, 0, x);
  return load(t, cell, 0);
}

struct Device {
  void* p = nullptr;
  size_t bytes;
  explicit Device(size_t b) : bytes(b) { HIP_OK(hipMalloc(&p, std::max<size_t>(b, 1))); }
  ~Device() { (void)hipFree(p); }
  Device(const Device&) = delete;
  void upload(const std::vector<char>& host) { HIP_OK(hipMemcpy(p, host.data(), host.size(), hipMemcpyHostToDevice)); }
  std::vector<char> download() const {
    std::vector<char> host(bytes);
    HIP_OK(hipMemcpy(host.data(), p, bytes, hipMemcpyDeviceToHost));
    return host;
  }
};

std::vector<char> host_values(ncclDataType_t t, size_t count, double (*f)(int, size_t), int r) {
  std::vector<char> h(count * rccl_emu::type_size(t));
  for (size_t i = 0; i < count; ++i) store(t, h.data(), i, f(r, i));
  return h;
}

void expect(ncclDataType_t t, const std::vector<char>& got, size_t i, double want, const std::string& what) {
  ++g_checks;
  double actual = load(t, got.data(), i);
  if (actual != want) {
    die(__FILE__, __LINE__, what + " " + rccl_emu::type_name(t) + " element " + std::to_string(i) + " = " +
                                std::to_string(actual) + ", expected " + std::to_string(want));
  }
}

// The operator for `o`: built in, or a PreMulSum with this rank's scalar (destroy it after use).
ncclRedOp_t make_op(const Job& job, OpChoice o, ncclDataType_t t, Device& device_scalar) {
  switch (o) {
    case kSum: return ncclSum;
    case kProd: return ncclProd;
    case kMax: return ncclMax;
    case kMin: return ncclMin;
    case kAvg: return ncclAvg;
    default: break;
  }
  std::vector<char> s(8);
  store(t, s.data(), 0, scalar_of(job.me));
  ncclRedOp_t op;
  if (o == kPreMulHost) {
    NCCL_OK(ncclRedOpCreatePreMulSum(&op, s.data(), t, ncclScalarHostImmediate, job.comm));
  } else {
    HIP_OK(hipMemcpy(device_scalar.p, s.data(), rccl_emu::type_size(t), hipMemcpyHostToDevice));
    NCCL_OK(ncclRedOpCreatePreMulSum(&op, device_scalar.p, t, ncclScalarDevice, job.comm));
  }
  return op;
}

void release_op(const Job& job, ncclRedOp_t op) {
  if (op >= ncclNumOps) NCCL_OK(ncclRedOpDestroy(op, job.comm));
}

void test_all_reduce(const Job& job, ncclDataType_t t, OpChoice o, bool in_place) {
  const size_t count = 3 * job.n + 1;  // uneven segments
  const size_t E = rccl_emu::type_size(t);
  Device send(count * E), recv(count * E), scalar(8);
  send.upload(host_values(t, count, v, job.me));
  ncclRedOp_t op = make_op(job, o, t, scalar);
  NCCL_OK(ncclAllReduce(send.p, in_place ? send.p : recv.p, count, t, op, job.comm, job.stream));
  HIP_OK(hipStreamSynchronize(job.stream));
  release_op(job, op);
  auto got = (in_place ? send : recv).download();
  for (size_t k = 0; k < count; ++k) {
    expect(t, got, k, expected_reduction(o, t, job.n, k), std::string("AllReduce ") + op_name(o) + (in_place ? " in place" : ""));
  }
}

void test_reduce(const Job& job, ncclDataType_t t, OpChoice o) {
  const size_t count = 5;
  const int root = job.n - 1;
  const size_t E = rccl_emu::type_size(t);
  Device send(count * E), recv(count * E), scalar(8);
  send.upload(host_values(t, count, v, job.me));
  recv.upload(std::vector<char>(count * E, 0));
  ncclRedOp_t op = make_op(job, o, t, scalar);
  NCCL_OK(ncclReduce(send.p, recv.p, count, t, op, root, job.comm, job.stream));
  HIP_OK(hipStreamSynchronize(job.stream));
  release_op(job, op);
  auto got = recv.download();
  for (size_t k = 0; k < count; ++k) {
    expect(t, got, k, job.me == root ? expected_reduction(o, t, job.n, k) : 0.0, std::string("Reduce ") + op_name(o));
  }
}

void test_reduce_scatter(const Job& job, ncclDataType_t t, OpChoice o) {
  const size_t rc = 3;
  const size_t E = rccl_emu::type_size(t);
  Device send(rc * job.n * E), recv(rc * E), scalar(8);
  send.upload(host_values(t, rc * job.n, v, job.me));
  ncclRedOp_t op = make_op(job, o, t, scalar);
  NCCL_OK(ncclReduceScatter(send.p, recv.p, rc, t, op, job.comm, job.stream));
  HIP_OK(hipStreamSynchronize(job.stream));
  release_op(job, op);
  auto got = recv.download();
  for (size_t j = 0; j < rc; ++j) {
    expect(t, got, j, expected_reduction(o, t, job.n, job.me * rc + j), std::string("ReduceScatter ") + op_name(o));
  }
}

void test_all_reduce_with_bias(const Job& job, ncclDataType_t t, OpChoice o, bool with_bias) {
  const size_t count = 4;
  const size_t E = rccl_emu::type_size(t);
  Device send(count * E), recv(count * E), bias(count * E), scalar(8);
  send.upload(host_values(t, count, v, job.me));
  std::vector<char> b(count * E);
  const double my_bias = 1.0 + job.me % 2;  // per-rank: the bias is local
  for (size_t i = 0; i < count; ++i) store(t, b.data(), i, my_bias);
  bias.upload(b);
  ncclRedOp_t op = make_op(job, o, t, scalar);
  NCCL_OK(ncclAllReduceWithBias(send.p, recv.p, count, t, op, job.comm, job.stream, with_bias ? bias.p : nullptr));
  HIP_OK(hipStreamSynchronize(job.stream));
  release_op(job, op);
  auto got = recv.download();
  for (size_t k = 0; k < count; ++k) {
    double reduced = expected_reduction(o, t, job.n, k);
    double combined = o == kProd ? reduced * my_bias
                      : o == kMax  ? std::max(reduced, my_bias)
                      : o == kMin  ? std::min(reduced, my_bias)
                                   : reduced + my_bias;
    double want = with_bias ? rounded(t, combined) : reduced;  // the bias step rounds to the type
    expect(t, got, k, want, std::string("AllReduceWithBias ") + op_name(o) + (with_bias ? "" : " (no bias)"));
  }
}

void test_copies(const Job& job, ncclDataType_t t) {
  const size_t E = rccl_emu::type_size(t);
  const int n = job.n, me = job.me;
  const size_t c = 3;
  {  // Broadcast from root 1 % n, then Bcast in place from root 0
    int root = 1 % n;
    Device send(c * E), recv(c * E);
    send.upload(host_values(t, c, w, me));
    NCCL_OK(ncclBroadcast(send.p, recv.p, c, t, root, job.comm, job.stream));
    NCCL_OK(ncclBcast(send.p, c, t, 0, job.comm, job.stream));
    HIP_OK(hipStreamSynchronize(job.stream));
    auto got = recv.download();
    auto in_place = send.download();
    for (size_t i = 0; i < c; ++i) {
      expect(t, got, i, w(root, i), "Broadcast");
      expect(t, in_place, i, w(0, i), "Bcast");
    }
  }
  {  // AllGather, and in place
    Device send(c * E), recv(c * n * E), inplace(c * n * E);
    send.upload(host_values(t, c, w, me));
    std::vector<char> h(c * n * E, 0);
    for (size_t i = 0; i < c; ++i) store(t, h.data(), me * c + i, w(me, i));
    inplace.upload(h);
    NCCL_OK(ncclAllGather(send.p, recv.p, c, t, job.comm, job.stream));
    NCCL_OK(ncclAllGather(static_cast<char*>(inplace.p) + me * c * E, inplace.p, c, t, job.comm, job.stream));
    HIP_OK(hipStreamSynchronize(job.stream));
    auto got = recv.download();
    auto got2 = inplace.download();
    for (int r = 0; r < n; ++r)
      for (size_t i = 0; i < c; ++i) {
        expect(t, got, r * c + i, w(r, i), "AllGather");
        expect(t, got2, r * c + i, w(r, i), "AllGather in place");
      }
  }
  {  // Gather to root 0, Scatter from root n-1
    Device send(c * E), recv(c * n * E), all(c * n * E), part(c * E);
    send.upload(host_values(t, c, w, me));
    all.upload(host_values(t, c * n, w, me));
    NCCL_OK(ncclGather(send.p, recv.p, c, t, 0, job.comm, job.stream));
    NCCL_OK(ncclScatter(all.p, part.p, c, t, n - 1, job.comm, job.stream));
    HIP_OK(hipStreamSynchronize(job.stream));
    if (me == 0) {
      auto got = recv.download();
      for (int r = 0; r < n; ++r)
        for (size_t i = 0; i < c; ++i) expect(t, got, r * c + i, w(r, i), "Gather");
    }
    auto got = part.download();
    for (size_t i = 0; i < c; ++i) expect(t, got, i, w(n - 1, me * c + i), "Scatter");
  }
  {  // AllToAll: block j of rank r (value w(r, j*c+i)) lands as block r on rank j
    Device send(c * n * E), recv(c * n * E);
    send.upload(host_values(t, c * n, w, me));
    NCCL_OK(ncclAllToAll(send.p, recv.p, c, t, job.comm, job.stream));
    HIP_OK(hipStreamSynchronize(job.stream));
    auto got = recv.download();
    for (int r = 0; r < n; ++r)
      for (size_t i = 0; i < c; ++i) expect(t, got, r * c + i, w(r, me * c + i), "AllToAll");
  }
  {  // AllToAllv: rank s sends (s + d) % 3 + 1 elements to rank d; also in place
    auto amount = [](int s, int d) { return static_cast<size_t>((s + d) % 3 + 1); };
    std::vector<size_t> sc(n), sd(n), rcn(n), rd(n);
    size_t st = 0, rt = 0;
    for (int p = 0; p < n; ++p) {
      sc[p] = amount(me, p); sd[p] = st; st += sc[p];
      rcn[p] = amount(p, me); rd[p] = rt; rt += rcn[p];
    }
    size_t extent = std::max(st, rt);
    Device send(extent * E), recv(extent * E), both(extent * E);
    std::vector<char> h(extent * E, 0);
    for (int p = 0; p < n; ++p)
      for (size_t i = 0; i < sc[p]; ++i) store(t, h.data(), sd[p] + i, w(me + p, i));  // tagged by sender+receiver
    send.upload(h);
    both.upload(h);
    NCCL_OK(ncclAllToAllv(send.p, sc.data(), sd.data(), recv.p, rcn.data(), rd.data(), t, job.comm, job.stream));
    NCCL_OK(ncclAllToAllv(both.p, sc.data(), sd.data(), both.p, rcn.data(), rd.data(), t, job.comm, job.stream));
    HIP_OK(hipStreamSynchronize(job.stream));
    auto got = recv.download();
    auto got2 = both.download();
    for (int p = 0; p < n; ++p)
      for (size_t i = 0; i < rcn[p]; ++i) {
        expect(t, got, rd[p] + i, w(p + me, i), "AllToAllv");
        expect(t, got2, rd[p] + i, w(p + me, i), "AllToAllv in place");
      }
  }
  {  // Send/recv ring in one group: every rank sends to the next and receives from the previous
    int next = (me + 1) % n, prev = (me + n - 1) % n;
    Device send(c * E), recv(c * E);
    send.upload(host_values(t, c, w, me));
    NCCL_OK(ncclGroupStart());
    NCCL_OK(ncclSend(send.p, c, t, next, job.comm, job.stream));
    NCCL_OK(ncclRecv(recv.p, c, t, prev, job.comm, job.stream));
    NCCL_OK(ncclGroupEnd());
    HIP_OK(hipStreamSynchronize(job.stream));
    auto got = recv.download();
    for (size_t i = 0; i < c; ++i) expect(t, got, i, w(prev, i), "Send/Recv ring");
  }
}

// Messages far larger than a channel ring (256 KiB): streaming, in place, and a fused ring of
// sends that could only deadlock if a group's sends and receives did not progress together.
void test_large(const Job& job) {
  const size_t count = 300'000;
  Device data(count * 4);
  data.upload(host_values(ncclFloat32, count, v, job.me));
  NCCL_OK(ncclAllReduce(data.p, data.p, count, ncclFloat32, ncclSum, job.comm, job.stream));
  HIP_OK(hipStreamSynchronize(job.stream));
  auto got = data.download();
  for (size_t k = 0; k < count; k += 997) expect(ncclFloat32, got, k, expected_reduction(kSum, ncclFloat32, job.n, k), "large AllReduce");

  const size_t big = 1 << 20;  // 1 MiB per peer
  Device out(big), in(big);
  std::vector<char> h(big);
  for (size_t i = 0; i < big; ++i) h[i] = static_cast<char>((i * 7 + job.me) & 0xff);
  out.upload(h);
  int next = (job.me + 1) % job.n, prev = (job.me + job.n - 1) % job.n;
  NCCL_OK(ncclGroupStart());
  NCCL_OK(ncclRecv(in.p, big, ncclUint8, prev, job.comm, job.stream));  // receive first: order does not matter
  NCCL_OK(ncclSend(out.p, big, ncclUint8, next, job.comm, job.stream));
  NCCL_OK(ncclGroupEnd());
  HIP_OK(hipStreamSynchronize(job.stream));
  auto r = in.download();
  for (size_t i = 0; i < big; i += 4093) CHECK_EQ(static_cast<int>(static_cast<char>((i * 7 + prev) & 0xff)), static_cast<int>(r[i]));
}

}  // namespace

int main() {
  const char* rank_text = std::getenv("RANK");
  const char* size_text = std::getenv("WORLD_SIZE");
  const char* job_text = std::getenv("ROCSHMEM_EMU_JOB_ID");
  if (!rank_text || !size_text || !job_text) {
    std::fprintf(stderr, "run me with rocshmem-emu-run -n N\n");
    return 2;
  }
  Job job{};
  job.me = g_rank = std::atoi(rank_text);
  job.n = std::atoi(size_text);
  ncclUniqueId id = share_unique_id(job.me, job_text);
  HIP_OK(hipSetDevice(0));
  HIP_OK(hipStreamCreate(&job.stream));
  NCCL_OK(ncclCommInitRank(&job.comm, job.n, id, job.me));
  if (job.me == 0) remove_shared_id(job_text);
  int count = 0, rank = -1, device = -1;
  NCCL_OK(ncclCommCount(job.comm, &count));
  NCCL_OK(ncclCommUserRank(job.comm, &rank));
  NCCL_OK(ncclCommCuDevice(job.comm, &device));
  CHECK_EQ(job.n, count);
  CHECK_EQ(job.me, rank);
  CHECK_EQ(0, device);

  for (int ti = 0; ti < ncclNumTypes; ++ti) {
    auto t = static_cast<ncclDataType_t>(ti);
    for (OpChoice o : kAllOps) {
      test_all_reduce(job, t, o, false);
      test_reduce(job, t, o);
      test_reduce_scatter(job, t, o);
      test_all_reduce_with_bias(job, t, o, true);
    }
    test_all_reduce(job, t, kSum, true);
    test_all_reduce_with_bias(job, t, kSum, false);
    test_copies(job, t);
  }
  test_large(job);

  ncclResult_t async = ncclInternalError;
  NCCL_OK(ncclCommGetAsyncError(job.comm, &async));
  CHECK_EQ(static_cast<int>(ncclSuccess), static_cast<int>(async));
  NCCL_OK(ncclCommFinalize(job.comm));
  NCCL_OK(ncclCommDestroy(job.comm));
  HIP_OK(hipStreamDestroy(job.stream));
  std::printf("rank %d of %d: %ld checks passed\n", job.me, job.n, g_checks);
  return 0;
}
