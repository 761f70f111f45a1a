// The 42 public functions of rccl.h. Each validates its arguments like RCCL does (an invalid
// argument is an error code plus a last-error text, never a crash), then hands over to the
// group/task machinery. Definitions start with RCCL_EMU_API; the version script exports nccl* only.
#include <hip/hip_runtime_api.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <limits>
#include <string>

#include "datatypes.hpp"
#include "errors.hpp"
#include "group.hpp"
#include "joins.hpp"
#include "waiting.hpp"
#include "tasks.hpp"

using namespace rccl_emu;

namespace {

constexpr unsigned int kConfigMagic = 0xcafebeef;
constexpr unsigned int kSimInfoMagic = 0x74685283;

std::string str(int v) { return std::to_string(v); }

// A live, joined, healthy communicator, or the reason (as a recorded failure) why not.
ncclResult_t usable(ncclComm_t handle, const char* fn, CommPtr* out) {
  CommPtr c = lookup(handle);
  if (!c) return fail(ncclInvalidArgument, std::string(fn) + " : comm argument is NULL or not a live communicator");
  if (!c->ready.load()) {
    return fail(ncclInvalidUsage, std::string(fn) + " : the communicator is not initialized (yet): its creation "
                                                     "failed or waits for ncclGroupEnd");
  }
  if (int error = c->async_error.load(); error != ncclSuccess) {
    return fail(static_cast<ncclResult_t>(error), std::string(fn) + " : the communicator failed earlier (" +
                                                      result_string(static_cast<ncclResult_t>(error)) +
                                                      "); abort or destroy it");
  }
  bool finalized;
  {
    std::lock_guard<std::mutex> lock(c->mutex);
    finalized = c->finalized;
  }
  if (finalized) return fail(ncclInvalidUsage, std::string(fn) + " : the communicator was finalized");
  *out = c;
  return ncclSuccess;
}

ncclResult_t check_type(int type, const char* fn) {
  if (type_size(type) == 0) return fail(ncclInvalidArgument, std::string(fn) + " : invalid type " + str(type));
  return ncclSuccess;
}

ncclResult_t check_rank(int r, const CommState& c, const char* what, const char* fn) {
  if (r < 0 || r >= c.nranks) {
    return fail(ncclInvalidArgument, std::string(fn) + " : invalid " + what + " " + str(r) + " (nranks " +
                                         str(c.nranks) + ")");
  }
  return ncclSuccess;
}

ncclResult_t check_buffer(const void* p, size_t count, const char* which, const char* fn) {
  if (p == nullptr && count > 0) return fail(ncclInvalidArgument, std::string(fn) + " : " + which + " is NULL");
  return ncclSuccess;
}

ncclResult_t check_size(size_t count, size_t factor, int type, const char* fn) {
  size_t element = type_size(type);
  if (factor != 0 && count > std::numeric_limits<size_t>::max() / factor / element) {
    return fail(ncclInvalidArgument, std::string(fn) + " : count " + std::to_string(count) + " overflows");
  }
  return ncclSuccess;
}

ncclResult_t resolve_reduction(CommState& c, int op, ncclDataType_t type, Reduction* r, const char* fn) {
  switch (op) {
    case ncclSum: r->base = BaseOp::sum; return ncclSuccess;
    case ncclProd: r->base = BaseOp::prod; return ncclSuccess;
    case ncclMax: r->base = BaseOp::max; return ncclSuccess;
    case ncclMin: r->base = BaseOp::min; return ncclSuccess;
    case ncclAvg:
      // As RCCL: floating types premultiply by 1/nranks, integers divide the sum.
      r->base = BaseOp::sum;
      if (is_floating(type)) {
        r->premultiply = true;
        store_reciprocal(type, c.nranks, r->scalar);
      } else {
        r->divide_after = true;
      }
      return ncclSuccess;
    default: break;
  }
  std::lock_guard<std::mutex> lock(c.mutex);
  auto it = c.custom_ops.find(op);
  if (it == c.custom_ops.end()) return fail(ncclInvalidArgument, std::string(fn) + " : invalid reduction operation " + str(op));
  if (it->second.type != type) {
    return fail(ncclInvalidArgument, std::string(fn) + " : reduction operation " + str(op) + " was created for " +
                                         type_name(it->second.type) + ", not " + type_name(type));
  }
  r->base = BaseOp::sum;
  r->premultiply = true;
  r->scalar_on_device = it->second.on_device;
  r->device_scalar = it->second.device_value;
  std::memcpy(r->scalar, it->second.host_value, sizeof r->scalar);
  return ncclSuccess;
}

// Common front of the collectives: comm, type, size and (for reductions) the operator.
ncclResult_t prepare(ncclComm_t comm, const char* fn, Kind kind, size_t count, size_t factor, int type,
                     hipStream_t stream, CommPtr* c, Operation* op) {
  if (ncclResult_t s = usable(comm, fn, c); s != ncclSuccess) return s;
  if (ncclResult_t s = check_type(type, fn); s != ncclSuccess) return s;
  if (ncclResult_t s = check_size(count, factor == 0 ? 1 : factor, type, fn); s != ncclSuccess) return s;
  op->kind = kind;
  op->count = count;
  op->type = static_cast<ncclDataType_t>(type);
  op->stream = stream;
  return ncclSuccess;
}

ncclResult_t with_reduction(CommState& c, int red, Operation* op, const char* fn) {
  return resolve_reduction(c, red, op->type, &op->reduction, fn);
}

}  // namespace

// ---- versions, errors, ids -------------------------------------------------------------------

RCCL_EMU_API ncclResult_t ncclGetVersion(int* version) {
  if (version == nullptr) return fail(ncclInvalidArgument, "ncclGetVersion : version argument is NULL");
  *version = NCCL_VERSION_CODE;
  return ncclSuccess;
}

RCCL_EMU_API const char* ncclGetErrorString(ncclResult_t result) { return result_string(result); }

RCCL_EMU_API const char* ncclGetLastError(ncclComm_t) { return last_error(); }

RCCL_EMU_API void ncclResetDebugInit() {}

RCCL_EMU_API ncclResult_t ncclGetUniqueId(ncclUniqueId* uniqueId) {
  if (uniqueId == nullptr) return fail(ncclInvalidArgument, "ncclGetUniqueId : uniqueId argument is NULL");
  if (!create_unique_id(uniqueId)) return fail(ncclSystemError, "ncclGetUniqueId : getrandom failed");
  return ncclSuccess;
}

// ---- communicators -----------------------------------------------------------------------------

namespace {

ncclResult_t check_config(const ncclConfig_t* config, const char* fn) {
  if (config == nullptr) return ncclSuccess;
  if (config->magic != kConfigMagic || config->size < offsetof(ncclConfig_t, blocking)) {
    return fail(ncclInvalidArgument, std::string(fn) + " : config is not initialized with NCCL_CONFIG_INITIALIZER");
  }
  return ncclSuccess;
}

ncclResult_t current_device(int* device, const char* fn) {
  hipError_t status = hipGetDevice(device);
  if (status != hipSuccess) {
    return fail(ncclUnhandledCudaError, std::string(fn) + " : hipGetDevice failed: " + hipGetErrorString(status));
  }
  return ncclSuccess;
}

ncclResult_t init_rank(ncclComm_t* comm, int nranks, const ncclUniqueId& commId, int rank,
                       const ncclConfig_t* config, const char* fn) {
  if (comm == nullptr) return fail(ncclInvalidArgument, std::string(fn) + " : comm argument is NULL");
  *comm = nullptr;
  if (nranks < 1) return fail(ncclInvalidArgument, std::string(fn) + " : invalid nranks " + str(nranks));
  if (rank < 0 || rank >= nranks) {
    return fail(ncclInvalidArgument, std::string(fn) + " : invalid rank " + str(rank) + " (nranks " + str(nranks) + ")");
  }
  if (ncclResult_t s = check_config(config, fn); s != ncclSuccess) return s;
  if (std::string error; !bootstrap_timeout_valid(&error)) return fail(ncclInvalidArgument, std::string(fn) + " : " + error);
  IdContent id;
  if (!parse_unique_id(commId, &id)) {
    return fail(ncclInvalidArgument, std::string(fn) + " : the unique id was not created by ncclGetUniqueId");
  }
  int device = 0;
  if (ncclResult_t s = current_device(&device, fn); s != ncclSuccess) return s;
  auto join = new_join(comm);
  join->state->id = id;
  join->state->rank = rank;
  join->state->nranks = nranks;
  join->state->device = device;
  return create_communicator(std::move(join));
}

}  // namespace

RCCL_EMU_API ncclResult_t ncclCommInitRank(ncclComm_t* comm, int nranks, ncclUniqueId commId, int rank) {
  return init_rank(comm, nranks, commId, rank, nullptr, "ncclCommInitRank");
}

RCCL_EMU_API ncclResult_t ncclCommInitRankConfig(ncclComm_t* comm, int nranks, ncclUniqueId commId, int rank,
                                                 ncclConfig_t* config) {
  return init_rank(comm, nranks, commId, rank, config, "ncclCommInitRankConfig");
}

RCCL_EMU_API ncclResult_t ncclCommInitRankScalable(ncclComm_t* newcomm, int nranks, int myrank, int nId,
                                                   ncclUniqueId* commIds, ncclConfig_t* config) {
  if (nId < 1 || commIds == nullptr) {
    return fail(ncclInvalidArgument, "ncclCommInitRankScalable : needs at least one unique id (nId " + str(nId) + ")");
  }
  // Every rank holds the same list; the first id names the communicator.
  return init_rank(newcomm, nranks, commIds[0], myrank, config, "ncclCommInitRankScalable");
}

RCCL_EMU_API ncclResult_t ncclCommInitAll(ncclComm_t* comm, int ndev, const int* devlist) {
  const char* fn = "ncclCommInitAll";
  if (comm == nullptr) return fail(ncclInvalidArgument, "ncclCommInitAll : comm argument is NULL");
  if (ndev < 1) return fail(ncclInvalidArgument, "ncclCommInitAll : invalid ndev " + str(ndev));
  int devices = 0;
  hipError_t hs = hipGetDeviceCount(&devices);
  if (hs != hipSuccess) {
    return fail(ncclUnhandledCudaError, std::string(fn) + " : hipGetDeviceCount failed: " + hipGetErrorString(hs));
  }
  for (int i = 0; i < ndev; ++i) {
    int d = devlist ? devlist[i] : i;
    if (d < 0 || d >= devices) {
      return fail(ncclInvalidArgument, std::string(fn) + " : device " + str(d) + " does not exist (" + str(devices) +
                                           " devices; the emulator's count is ROCSHMEM_EMU_DEVICES)");
    }
    for (int k = 0; k < i; ++k) {
      if ((devlist ? devlist[k] : k) == d) {
        return fail(ncclInvalidUsage, std::string(fn) + " : duplicate device " + str(d) + " in devlist");
      }
    }
  }
  ncclUniqueId uid;
  if (!create_unique_id(&uid)) return fail(ncclSystemError, "ncclCommInitAll : getrandom failed");
  IdContent id;
  parse_unique_id(uid, &id);
  std::vector<std::unique_ptr<PendingJoin>> joins;
  for (int i = 0; i < ndev; ++i) {
    comm[i] = nullptr;
    auto join = new_join(&comm[i]);
    join->state->id = id;
    join->state->rank = i;
    join->state->nranks = ndev;
    join->state->device = devlist ? devlist[i] : i;
    joins.push_back(std::move(join));
  }
  ncclResult_t status = run_joins(joins);
  if (status != ncclSuccess) {
    for (int i = 0; i < ndev; ++i) {
      if (comm[i] != nullptr) {
        comm[i]->state->segment->rank(i).state.store(kRankLeft);
        delete_handle(comm[i]);
        comm[i] = nullptr;
      }
    }
  }
  return status;
}

RCCL_EMU_API ncclResult_t ncclCommSplit(ncclComm_t comm, int color, int key, ncclComm_t* newcomm,
                                        ncclConfig_t* config) {
  const char* fn = "ncclCommSplit";
  CommPtr parent;
  if (ncclResult_t s = usable(comm, fn, &parent); s != ncclSuccess) return s;
  if (newcomm == nullptr) return fail(ncclInvalidArgument, "ncclCommSplit : newcomm argument is NULL");
  if (color < 0 && color != NCCL_SPLIT_NOCOLOR) {
    return fail(ncclInvalidArgument, "ncclCommSplit : invalid color " + str(color) + " (>= 0 or NCCL_SPLIT_NOCOLOR)");
  }
  if (ncclResult_t s = check_config(config, fn); s != ncclSuccess) return s;
  *newcomm = nullptr;
  auto join = new_join(color == NCCL_SPLIT_NOCOLOR ? nullptr : newcomm);
  join->split_parent = parent;
  join->color = color;
  join->key = key;
  {
    std::lock_guard<std::mutex> lock(parent->mutex);
    join->split_sequence = parent->split_sequence++;
  }
  return create_communicator(std::move(join));
}

RCCL_EMU_API ncclResult_t ncclCommShrink(ncclComm_t comm, int* excludeRanksList, int excludeRanksCount,
                                         ncclComm_t* newcomm, ncclConfig_t* config, int shrinkFlags) {
  const char* fn = "ncclCommShrink";
  CommPtr parent = lookup(comm);
  if (!parent || !parent->ready.load()) return fail(ncclInvalidArgument, "ncclCommShrink : comm argument is NULL or not a live communicator");
  if (newcomm == nullptr) return fail(ncclInvalidArgument, "ncclCommShrink : newcomm argument is NULL");
  if (excludeRanksCount < 0 || (excludeRanksCount > 0 && excludeRanksList == nullptr)) {
    return fail(ncclInvalidArgument, "ncclCommShrink : invalid exclude list");
  }
  if (shrinkFlags != NCCL_SHRINK_DEFAULT && shrinkFlags != NCCL_SHRINK_ABORT) {
    return fail(ncclInvalidArgument, "ncclCommShrink : invalid shrinkFlags " + str(shrinkFlags));
  }
  if (ncclResult_t s = check_config(config, fn); s != ncclSuccess) return s;
  std::vector<int> excluded(excludeRanksList, excludeRanksList + excludeRanksCount);
  std::sort(excluded.begin(), excluded.end());
  for (size_t i = 0; i < excluded.size(); ++i) {
    if (ncclResult_t s = check_rank(excluded[i], *parent, "excluded rank", fn); s != ncclSuccess) return s;
    if (i > 0 && excluded[i] == excluded[i - 1]) {
      return fail(ncclInvalidArgument, "ncclCommShrink : rank " + str(excluded[i]) + " is excluded twice");
    }
  }
  if (std::binary_search(excluded.begin(), excluded.end(), parent->rank)) {
    return fail(ncclInvalidArgument, "ncclCommShrink : rank " + str(parent->rank) +
                                         " is in the exclude list; excluded ranks must not call ncclCommShrink");
  }
  if (static_cast<int>(excluded.size()) >= parent->nranks) {
    return fail(ncclInvalidArgument, "ncclCommShrink : every rank is excluded");
  }
  if (shrinkFlags == NCCL_SHRINK_ABORT) abort_tasks(*parent);  // the parent's running work stops first
  *newcomm = nullptr;
  auto join = new_join(newcomm);
  CommState& s = *join->state;
  s.nranks = parent->nranks - static_cast<int>(excluded.size());
  s.rank = parent->rank - static_cast<int>(std::lower_bound(excluded.begin(), excluded.end(), parent->rank) - excluded.begin());
  s.device = parent->device;
  // Survivors agree on the exclusion list, hence on the derived id (and differ for another list).
  int64_t color = -2;
  for (int r : excluded) color = color * 1000003 + r;
  uint64_t sequence;
  {
    std::lock_guard<std::mutex> lock(parent->mutex);
    sequence = parent->shrink_sequence++;
  }
  ncclUniqueId derived = derive_unique_id(parent->id, sequence, color);
  parse_unique_id(derived, &s.id);
  return create_communicator(std::move(join));
}

RCCL_EMU_API ncclResult_t ncclCommFinalize(ncclComm_t comm) {
  CommPtr c;
  if (ncclResult_t s = usable(comm, "ncclCommFinalize", &c); s != ncclSuccess) return s;
  return finalize_communicator(c);
}

RCCL_EMU_API ncclResult_t ncclCommDestroy(ncclComm_t comm) {
  if (comm == nullptr) return ncclSuccess;
  CommPtr c = lookup(comm);
  if (!c) return fail(ncclInvalidArgument, "ncclCommDestroy : comm is not a live communicator");
  wait_until_idle(*c);
  if (c->segment && c->async_error.load() == ncclSuccess) c->segment->rank(c->rank).state.store(kRankLeft);
  delete_handle(comm);
  return ncclSuccess;
}

RCCL_EMU_API ncclResult_t ncclCommAbort(ncclComm_t comm) {
  if (comm == nullptr) return ncclSuccess;
  CommPtr c = lookup(comm);
  if (!c) return fail(ncclInvalidArgument, "ncclCommAbort : comm is not a live communicator");
  abort_tasks(*c);
  if (c->segment) c->segment->rank(c->rank).state.store(kRankAborted);
  delete_handle(comm);
  return ncclSuccess;
}

RCCL_EMU_API ncclResult_t ncclCommGetAsyncError(ncclComm_t comm, ncclResult_t* asyncError) {
  CommPtr c = lookup(comm);
  if (!c) return fail(ncclInvalidArgument, "ncclCommGetAsyncError : comm argument is NULL or not a live communicator");
  if (asyncError == nullptr) return fail(ncclInvalidArgument, "ncclCommGetAsyncError : asyncError argument is NULL");
  int error = c->async_error.load();
  *asyncError = error != ncclSuccess ? static_cast<ncclResult_t>(error) : c->ready.load() ? ncclSuccess : ncclInProgress;
  return ncclSuccess;
}

namespace {
template <class Read>
ncclResult_t query(ncclComm_t comm, int* out, const char* fn, Read read) {
  CommPtr c = lookup(comm);
  if (!c) return fail(ncclInvalidArgument, std::string(fn) + " : comm argument is NULL");
  if (out == nullptr) return fail(ncclInvalidArgument, std::string(fn) + " : output argument is NULL");
  if (!c->ready.load()) return fail(ncclInvalidUsage, std::string(fn) + " : the communicator is not initialized");
  *out = read(*c);
  return ncclSuccess;
}
}  // namespace

RCCL_EMU_API ncclResult_t ncclCommCount(const ncclComm_t comm, int* count) {
  return query(comm, count, "CommCount", [](const CommState& c) { return c.nranks; });
}

RCCL_EMU_API ncclResult_t ncclCommCuDevice(const ncclComm_t comm, int* device) {
  return query(comm, device, "CommCuDevice", [](const CommState& c) { return c.device; });
}

RCCL_EMU_API ncclResult_t ncclCommUserRank(const ncclComm_t comm, int* rank) {
  return query(comm, rank, "CommUserRank", [](const CommState& c) { return c.rank; });
}

// ---- registration and memory (the emulator needs none: bookkeeping and checks only) ----------

RCCL_EMU_API ncclResult_t ncclCommRegister(const ncclComm_t comm, void* buff, size_t size, void** handle) {
  CommPtr c;
  if (ncclResult_t s = usable(comm, "ncclCommRegister", &c); s != ncclSuccess) return s;
  if (buff == nullptr || size == 0 || handle == nullptr) {
    return fail(ncclInvalidArgument, "ncclCommRegister : buff, size and handle must be set");
  }
  auto* record = new ncclWindow{buff, size, 0};
  std::lock_guard<std::mutex> lock(c->mutex);
  c->registrations.insert(record);
  *handle = record;
  return ncclSuccess;
}

RCCL_EMU_API ncclResult_t ncclCommDeregister(const ncclComm_t comm, void* handle) {
  CommPtr c = lookup(comm);
  if (!c) return fail(ncclInvalidArgument, "ncclCommDeregister : comm argument is NULL or not a live communicator");
  std::lock_guard<std::mutex> lock(c->mutex);
  if (c->registrations.erase(handle) == 0) {
    return fail(ncclInvalidArgument, "ncclCommDeregister : handle was not registered with this communicator");
  }
  delete static_cast<ncclWindow*>(handle);
  return ncclSuccess;
}

RCCL_EMU_API ncclResult_t ncclCommWindowRegister(ncclComm_t comm, void* buff, size_t size, ncclWindow_t* win,
                                                 int winFlags) {
  CommPtr c;
  if (ncclResult_t s = usable(comm, "ncclCommWindowRegister", &c); s != ncclSuccess) return s;
  if (buff == nullptr || size == 0 || win == nullptr) {
    return fail(ncclInvalidArgument, "ncclCommWindowRegister : buff, size and win must be set");
  }
  if (winFlags != NCCL_WIN_DEFAULT && winFlags != NCCL_WIN_COLL_SYMMETRIC) {
    return fail(ncclInvalidArgument, "ncclCommWindowRegister : invalid winFlags " + str(winFlags));
  }
  auto* window = new ncclWindow{buff, size, winFlags};
  std::lock_guard<std::mutex> lock(c->mutex);
  c->windows.insert(window);
  *win = window;
  return ncclSuccess;
}

RCCL_EMU_API ncclResult_t ncclCommWindowDeregister(ncclComm_t comm, ncclWindow_t win) {
  CommPtr c = lookup(comm);
  if (!c) return fail(ncclInvalidArgument, "ncclCommWindowDeregister : comm argument is NULL or not a live communicator");
  std::lock_guard<std::mutex> lock(c->mutex);
  if (c->windows.erase(win) == 0) {
    return fail(ncclInvalidArgument, "ncclCommWindowDeregister : window was not registered with this communicator");
  }
  delete win;
  return ncclSuccess;
}

RCCL_EMU_API ncclResult_t ncclMemAlloc(void** ptr, size_t size) {
  if (ptr == nullptr) return fail(ncclInvalidArgument, "ncclMemAlloc : ptr argument is NULL");
  hipError_t status = hipMalloc(ptr, size);
  if (status != hipSuccess) {
    return fail(ncclUnhandledCudaError, std::string("ncclMemAlloc : hipMalloc failed: ") + hipGetErrorString(status));
  }
  return ncclSuccess;
}

RCCL_EMU_API ncclResult_t ncclMemFree(void* ptr) {
  hipError_t status = hipFree(ptr);
  if (status != hipSuccess) {
    return fail(ncclUnhandledCudaError, std::string("ncclMemFree : hipFree failed: ") + hipGetErrorString(status));
  }
  return ncclSuccess;
}

// ---- custom reduction operators ----------------------------------------------------------------

RCCL_EMU_API ncclResult_t ncclRedOpCreatePreMulSum(ncclRedOp_t* op, void* scalar, ncclDataType_t datatype,
                                                   ncclScalarResidence_t residence, ncclComm_t comm) {
  const char* fn = "ncclRedOpCreatePreMulSum";
  CommPtr c;
  if (ncclResult_t s = usable(comm, fn, &c); s != ncclSuccess) return s;
  if (op == nullptr || scalar == nullptr) return fail(ncclInvalidArgument, "ncclRedOpCreatePreMulSum : op and scalar must be set");
  if (ncclResult_t s = check_type(datatype, fn); s != ncclSuccess) return s;
  if (residence != ncclScalarDevice && residence != ncclScalarHostImmediate) {
    return fail(ncclInvalidArgument, "ncclRedOpCreatePreMulSum : invalid residence " + str(residence));
  }
  PreMulSum created{datatype, residence == ncclScalarDevice, {}, scalar};
  if (!created.on_device) std::memcpy(created.host_value, scalar, type_size(datatype));
  std::lock_guard<std::mutex> lock(c->mutex);
  if (c->next_custom_op == INT_MAX) return fail(ncclInternalError, "ncclRedOpCreatePreMulSum : out of operator ids");
  int id = c->next_custom_op++;
  c->custom_ops[id] = created;
  *op = static_cast<ncclRedOp_t>(id);
  return ncclSuccess;
}

RCCL_EMU_API ncclResult_t ncclRedOpDestroy(ncclRedOp_t op, ncclComm_t comm) {
  CommPtr c = lookup(comm);
  if (!c) return fail(ncclInvalidArgument, "ncclRedOpDestroy : comm argument is NULL or not a live communicator");
  if (static_cast<int>(op) < ncclNumOps) {
    return fail(ncclInvalidArgument, "ncclRedOpDestroy : operator " + str(op) + " is built in and cannot be destroyed");
  }
  std::lock_guard<std::mutex> lock(c->mutex);
  if (c->custom_ops.erase(op) == 0) {
    return fail(ncclInvalidArgument, "ncclRedOpDestroy : operator " + str(op) + " was not created on this communicator");
  }
  return ncclSuccess;
}

// ---- collectives -------------------------------------------------------------------------------

RCCL_EMU_API ncclResult_t ncclAllReduce(const void* sendbuff, void* recvbuff, size_t count, ncclDataType_t datatype,
                                        ncclRedOp_t op, ncclComm_t comm, hipStream_t stream) {
  const char* fn = "ncclAllReduce";
  CommPtr c;
  Operation o;
  if (ncclResult_t s = prepare(comm, fn, Kind::all_reduce, count, 1, datatype, stream, &c, &o); s != ncclSuccess) return s;
  if (ncclResult_t s = with_reduction(*c, op, &o, fn); s != ncclSuccess) return s;
  if (ncclResult_t s = check_buffer(sendbuff, count, "sendbuff", fn); s != ncclSuccess) return s;
  if (ncclResult_t s = check_buffer(recvbuff, count, "recvbuff", fn); s != ncclSuccess) return s;
  o.send = sendbuff;
  o.recv = recvbuff;
  return enqueue(c, std::move(o));
}

RCCL_EMU_API ncclResult_t ncclAllReduceWithBias(const void* sendbuff, void* recvbuff, size_t count,
                                                ncclDataType_t datatype, ncclRedOp_t op, ncclComm_t comm,
                                                hipStream_t stream, const void* acc) {
  const char* fn = "ncclAllReduceWithBias";
  CommPtr c;
  Operation o;
  if (ncclResult_t s = prepare(comm, fn, Kind::all_reduce_with_bias, count, 1, datatype, stream, &c, &o); s != ncclSuccess) return s;
  if (ncclResult_t s = with_reduction(*c, op, &o, fn); s != ncclSuccess) return s;
  if (ncclResult_t s = check_buffer(sendbuff, count, "sendbuff", fn); s != ncclSuccess) return s;
  if (ncclResult_t s = check_buffer(recvbuff, count, "recvbuff", fn); s != ncclSuccess) return s;
  o.send = sendbuff;
  o.recv = recvbuff;
  o.bias = acc;  // NULL: a plain all-reduce
  return enqueue(c, std::move(o));
}

RCCL_EMU_API ncclResult_t ncclReduce(const void* sendbuff, void* recvbuff, size_t count, ncclDataType_t datatype,
                                     ncclRedOp_t op, int root, ncclComm_t comm, hipStream_t stream) {
  const char* fn = "ncclReduce";
  CommPtr c;
  Operation o;
  if (ncclResult_t s = prepare(comm, fn, Kind::reduce, count, 1, datatype, stream, &c, &o); s != ncclSuccess) return s;
  if (ncclResult_t s = with_reduction(*c, op, &o, fn); s != ncclSuccess) return s;
  if (ncclResult_t s = check_rank(root, *c, "root", fn); s != ncclSuccess) return s;
  if (ncclResult_t s = check_buffer(sendbuff, count, "sendbuff", fn); s != ncclSuccess) return s;
  if (c->rank == root) {
    if (ncclResult_t s = check_buffer(recvbuff, count, "recvbuff", fn); s != ncclSuccess) return s;
  }
  o.send = sendbuff;
  o.recv = recvbuff;
  o.root = root;
  return enqueue(c, std::move(o));
}

RCCL_EMU_API ncclResult_t ncclBroadcast(const void* sendbuff, void* recvbuff, size_t count, ncclDataType_t datatype,
                                        int root, ncclComm_t comm, hipStream_t stream) {
  const char* fn = "ncclBroadcast";
  CommPtr c;
  Operation o;
  if (ncclResult_t s = prepare(comm, fn, Kind::broadcast, count, 1, datatype, stream, &c, &o); s != ncclSuccess) return s;
  if (ncclResult_t s = check_rank(root, *c, "root", fn); s != ncclSuccess) return s;
  if (c->rank == root) {
    if (ncclResult_t s = check_buffer(sendbuff, count, "sendbuff", fn); s != ncclSuccess) return s;
  }
  if (ncclResult_t s = check_buffer(recvbuff, count, "recvbuff", fn); s != ncclSuccess) return s;
  o.send = sendbuff;
  o.recv = recvbuff;
  o.root = root;
  return enqueue(c, std::move(o));
}

RCCL_EMU_API ncclResult_t ncclBcast(void* buff, size_t count, ncclDataType_t datatype, int root, ncclComm_t comm,
                                    hipStream_t stream) {
  return ncclBroadcast(buff, buff, count, datatype, root, comm, stream);
}

RCCL_EMU_API ncclResult_t ncclAllGather(const void* sendbuff, void* recvbuff, size_t sendcount,
                                        ncclDataType_t datatype, ncclComm_t comm, hipStream_t stream) {
  const char* fn = "ncclAllGather";
  CommPtr c;
  Operation o;
  if (ncclResult_t s = prepare(comm, fn, Kind::all_gather, sendcount, 1, datatype, stream, &c, &o); s != ncclSuccess) return s;
  if (ncclResult_t s = check_size(sendcount, c->nranks, datatype, fn); s != ncclSuccess) return s;
  if (ncclResult_t s = check_buffer(sendbuff, sendcount, "sendbuff", fn); s != ncclSuccess) return s;
  if (ncclResult_t s = check_buffer(recvbuff, sendcount, "recvbuff", fn); s != ncclSuccess) return s;
  o.send = sendbuff;
  o.recv = recvbuff;
  return enqueue(c, std::move(o));
}

RCCL_EMU_API ncclResult_t ncclReduceScatter(const void* sendbuff, void* recvbuff, size_t recvcount,
                                            ncclDataType_t datatype, ncclRedOp_t op, ncclComm_t comm,
                                            hipStream_t stream) {
  const char* fn = "ncclReduceScatter";
  CommPtr c;
  Operation o;
  if (ncclResult_t s = prepare(comm, fn, Kind::reduce_scatter, recvcount, 1, datatype, stream, &c, &o); s != ncclSuccess) return s;
  if (ncclResult_t s = check_size(recvcount, c->nranks, datatype, fn); s != ncclSuccess) return s;
  if (ncclResult_t s = with_reduction(*c, op, &o, fn); s != ncclSuccess) return s;
  if (ncclResult_t s = check_buffer(sendbuff, recvcount, "sendbuff", fn); s != ncclSuccess) return s;
  if (ncclResult_t s = check_buffer(recvbuff, recvcount, "recvbuff", fn); s != ncclSuccess) return s;
  o.send = sendbuff;
  o.recv = recvbuff;
  return enqueue(c, std::move(o));
}

RCCL_EMU_API ncclResult_t ncclAllToAll(const void* sendbuff, void* recvbuff, size_t count, ncclDataType_t datatype,
                                       ncclComm_t comm, hipStream_t stream) {
  const char* fn = "ncclAllToAll";
  CommPtr c;
  Operation o;
  if (ncclResult_t s = prepare(comm, fn, Kind::all_to_all, count, 1, datatype, stream, &c, &o); s != ncclSuccess) return s;
  if (ncclResult_t s = check_size(count, c->nranks, datatype, fn); s != ncclSuccess) return s;
  if (ncclResult_t s = check_buffer(sendbuff, count, "sendbuff", fn); s != ncclSuccess) return s;
  if (ncclResult_t s = check_buffer(recvbuff, count, "recvbuff", fn); s != ncclSuccess) return s;
  if (count > 0 && sendbuff == recvbuff) {
    return fail(ncclInvalidArgument, "ncclAllToAll : in-place operation is not supported (sendbuff == recvbuff)");
  }
  o.send = sendbuff;
  o.recv = recvbuff;
  return enqueue(c, std::move(o));
}

RCCL_EMU_API ncclResult_t ncclAllToAllv(const void* sendbuff, const size_t sendcounts[], const size_t sdispls[],
                                        void* recvbuff, const size_t recvcounts[], const size_t rdispls[],
                                        ncclDataType_t datatype, ncclComm_t comm, hipStream_t stream) {
  const char* fn = "ncclAllToAllv";
  CommPtr c;
  Operation o;
  if (ncclResult_t s = prepare(comm, fn, Kind::all_to_allv, 0, 1, datatype, stream, &c, &o); s != ncclSuccess) return s;
  if (sendcounts == nullptr || sdispls == nullptr || recvcounts == nullptr || rdispls == nullptr) {
    return fail(ncclInvalidArgument, "ncclAllToAllv : sendcounts, sdispls, recvcounts and rdispls must be set");
  }
  int n = c->nranks;
  size_t sent = 0, received = 0;
  for (int p = 0; p < n; ++p) {
    if (check_size(sendcounts[p] + sdispls[p], 1, datatype, fn) != ncclSuccess ||
        check_size(recvcounts[p] + rdispls[p], 1, datatype, fn) != ncclSuccess) {
      return fail(ncclInvalidArgument, "ncclAllToAllv : counts/displacements of rank " + str(p) + " overflow");
    }
    sent += sendcounts[p];
    received += recvcounts[p];
  }
  if (sendcounts[c->rank] != recvcounts[c->rank]) {
    return fail(ncclInvalidArgument, "ncclAllToAllv : rank " + str(c->rank) + " sends " +
                                         std::to_string(sendcounts[c->rank]) + " elements to itself but expects " +
                                         std::to_string(recvcounts[c->rank]));
  }
  if (ncclResult_t s = check_buffer(sendbuff, sent, "sendbuff", fn); s != ncclSuccess) return s;
  if (ncclResult_t s = check_buffer(recvbuff, received, "recvbuff", fn); s != ncclSuccess) return s;
  o.send = sendbuff;
  o.recv = recvbuff;
  o.send_counts.assign(sendcounts, sendcounts + n);
  o.send_displs.assign(sdispls, sdispls + n);
  o.recv_counts.assign(recvcounts, recvcounts + n);
  o.recv_displs.assign(rdispls, rdispls + n);
  return enqueue(c, std::move(o));
}

RCCL_EMU_API ncclResult_t ncclGather(const void* sendbuff, void* recvbuff, size_t sendcount, ncclDataType_t datatype,
                                     int root, ncclComm_t comm, hipStream_t stream) {
  const char* fn = "ncclGather";
  CommPtr c;
  Operation o;
  if (ncclResult_t s = prepare(comm, fn, Kind::gather, sendcount, 1, datatype, stream, &c, &o); s != ncclSuccess) return s;
  if (ncclResult_t s = check_size(sendcount, c->nranks, datatype, fn); s != ncclSuccess) return s;
  if (ncclResult_t s = check_rank(root, *c, "root", fn); s != ncclSuccess) return s;
  if (ncclResult_t s = check_buffer(sendbuff, sendcount, "sendbuff", fn); s != ncclSuccess) return s;
  if (c->rank == root) {
    if (ncclResult_t s = check_buffer(recvbuff, sendcount, "recvbuff", fn); s != ncclSuccess) return s;
  }
  o.send = sendbuff;
  o.recv = recvbuff;
  o.root = root;
  return enqueue(c, std::move(o));
}

RCCL_EMU_API ncclResult_t ncclScatter(const void* sendbuff, void* recvbuff, size_t recvcount,
                                      ncclDataType_t datatype, int root, ncclComm_t comm, hipStream_t stream) {
  const char* fn = "ncclScatter";
  CommPtr c;
  Operation o;
  if (ncclResult_t s = prepare(comm, fn, Kind::scatter, recvcount, 1, datatype, stream, &c, &o); s != ncclSuccess) return s;
  if (ncclResult_t s = check_size(recvcount, c->nranks, datatype, fn); s != ncclSuccess) return s;
  if (ncclResult_t s = check_rank(root, *c, "root", fn); s != ncclSuccess) return s;
  if (c->rank == root) {
    if (ncclResult_t s = check_buffer(sendbuff, recvcount, "sendbuff", fn); s != ncclSuccess) return s;
  }
  if (ncclResult_t s = check_buffer(recvbuff, recvcount, "recvbuff", fn); s != ncclSuccess) return s;
  o.send = sendbuff;
  o.recv = recvbuff;
  o.root = root;
  return enqueue(c, std::move(o));
}

RCCL_EMU_API ncclResult_t ncclSend(const void* sendbuff, size_t count, ncclDataType_t datatype, int peer,
                                   ncclComm_t comm, hipStream_t stream) {
  const char* fn = "ncclSend";
  CommPtr c;
  Operation o;
  if (ncclResult_t s = prepare(comm, fn, Kind::send, count, 1, datatype, stream, &c, &o); s != ncclSuccess) return s;
  if (ncclResult_t s = check_rank(peer, *c, "peer", fn); s != ncclSuccess) return s;
  if (ncclResult_t s = check_buffer(sendbuff, count, "sendbuff", fn); s != ncclSuccess) return s;
  o.send = sendbuff;
  o.peer = peer;
  return enqueue(c, std::move(o));
}

RCCL_EMU_API ncclResult_t ncclRecv(void* recvbuff, size_t count, ncclDataType_t datatype, int peer, ncclComm_t comm,
                                   hipStream_t stream) {
  const char* fn = "ncclRecv";
  CommPtr c;
  Operation o;
  if (ncclResult_t s = prepare(comm, fn, Kind::recv, count, 1, datatype, stream, &c, &o); s != ncclSuccess) return s;
  if (ncclResult_t s = check_rank(peer, *c, "peer", fn); s != ncclSuccess) return s;
  if (ncclResult_t s = check_buffer(recvbuff, count, "recvbuff", fn); s != ncclSuccess) return s;
  o.recv = recvbuff;
  o.peer = peer;
  return enqueue(c, std::move(o));
}

// ---- groups ------------------------------------------------------------------------------------

RCCL_EMU_API ncclResult_t ncclGroupStart() {
  group_start();
  return ncclSuccess;
}

RCCL_EMU_API ncclResult_t ncclGroupEnd() { return group_end(nullptr); }

RCCL_EMU_API ncclResult_t ncclGroupSimulateEnd(ncclSimInfo_t* simInfo) {
  if (simInfo == nullptr || simInfo->magic != kSimInfoMagic) {
    return fail(ncclInvalidArgument, "ncclGroupSimulateEnd : simInfo is not initialized with NCCL_SIM_INFO_INITIALIZER");
  }
  return group_end(&simInfo->estimatedTime);
}
