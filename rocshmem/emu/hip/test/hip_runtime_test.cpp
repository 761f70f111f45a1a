// Behaviour tests of libhip_cpu_emu, one case per process: `hip_runtime_test <case>`.
// ctest runs the cases with ROCSHMEM_EMU_DEVICES=3 unless the case says otherwise.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <hip/hip_runtime_api.h>
#include <hip/hip_version.h>

namespace {

int failures = 0;

#define CHECK(condition)                                                            \
  do {                                                                              \
    if (!(condition)) {                                                             \
      std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #condition); \
      ++failures;                                                                   \
    }                                                                               \
  } while (0)

#define CHECK_HIP(call, expected)                                                   \
  do {                                                                              \
    hipError_t status_ = (call);                                                    \
    if (status_ != (expected)) {                                                    \
      std::fprintf(stderr, "%s:%d: %s returned %s, expected %s\n", __FILE__, __LINE__, #call, \
                   hipGetErrorName(status_), hipGetErrorName(expected));            \
      ++failures;                                                                   \
    }                                                                               \
  } while (0)

#define OK(call) CHECK_HIP(call, hipSuccess)

// A host function that blocks its stream until the test opens the gate.
struct Gate {
  std::mutex mutex;
  std::condition_variable changed;
  bool open = false;
  bool entered = false;

  static void block(void* self) {
    auto* gate = static_cast<Gate*>(self);
    std::unique_lock<std::mutex> lock(gate->mutex);
    gate->entered = true;
    gate->changed.notify_all();
    gate->changed.wait(lock, [&] { return gate->open; });
  }
  void wait_until_entered() {
    std::unique_lock<std::mutex> lock(mutex);
    changed.wait(lock, [&] { return entered; });
  }
  void release() {
    std::lock_guard<std::mutex> lock(mutex);
    open = true;
    changed.notify_all();
  }
};

void set_flag(void* flag) { static_cast<std::atomic<int>*>(flag)->store(1); }

// Appends a value to a shared log, to observe execution order across streams.
struct OrderLog {
  std::mutex mutex;
  std::vector<int> entries;
};
struct LogEntry {
  OrderLog* log;
  int value;
  static void append(void* self) {
    auto* entry = static_cast<LogEntry*>(self);
    std::lock_guard<std::mutex> lock(entry->log->mutex);
    entry->log->entries.push_back(entry->value);
  }
};

void sleep_ms(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

void test_devices() {
  int count = -1;
  OK(hipInit(0));
  OK(hipGetDeviceCount(&count));
  CHECK(count == 3);
  const size_t physical = static_cast<size_t>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGESIZE);
  for (int d = 0; d < count; ++d) {
    hipDeviceProp_t prop;
    OK(hipGetDeviceProperties(&prop, d));
    CHECK(std::string(prop.name) == "rocSHMEM CPU emulator device " + std::to_string(d));
    CHECK(std::string(prop.gcnArchName) == "cpu-emu");
    CHECK(prop.totalGlobalMem == physical);
    int warp = 0;
    OK(hipDeviceGetAttribute(&warp, hipDeviceAttributeWarpSize, d));
    CHECK(warp == prop.warpSize && warp > 0);
    int processors = 0;
    OK(hipDeviceGetAttribute(&processors, hipDeviceAttributeMultiprocessorCount, d));
    CHECK(processors == prop.multiProcessorCount && processors > 0);
    char name[256];
    OK(hipDeviceGetName(name, sizeof(name), d));
    CHECK(std::string(name) == prop.name);
    char bus_id[32];
    OK(hipDeviceGetPCIBusId(bus_id, sizeof(bus_id), d));
    int found = -1;
    OK(hipDeviceGetByPCIBusId(&found, bus_id));
    CHECK(found == d);
  }
  hipDeviceProp_t prop;
  CHECK_HIP(hipGetDeviceProperties(&prop, 3), hipErrorInvalidDevice);
  int value = 0;
  CHECK_HIP(hipDeviceGetAttribute(&value, static_cast<hipDeviceAttribute_t>(-5), 0),
            hipErrorInvalidValue);

  // The current device is per host thread.
  int current = -1;
  OK(hipGetDevice(&current));
  CHECK(current == 0);
  OK(hipSetDevice(2));
  OK(hipGetDevice(&current));
  CHECK(current == 2);
  int seen_by_other_thread = -1;
  std::thread([&] { (void)hipGetDevice(&seen_by_other_thread); }).join();
  CHECK(seen_by_other_thread == 0);
  CHECK_HIP(hipSetDevice(3), hipErrorInvalidDevice);
  CHECK_HIP(hipSetDevice(-1), hipErrorInvalidDevice);
  OK(hipGetDevice(&current));
  CHECK(current == 2);

  // Allocations remember their device; streams belong to the device current at creation.
  void* buffer = nullptr;
  OK(hipMalloc(&buffer, 64));
  hipPointerAttribute_t attributes;
  OK(hipPointerGetAttributes(&attributes, buffer));
  CHECK(attributes.device == 2);
  hipStream_t stream;
  OK(hipStreamCreate(&stream));
  hipDevice_t stream_device = -1;
  OK(hipStreamGetDevice(stream, &stream_device));
  CHECK(stream_device == 2);
  OK(hipDeviceSynchronize());

  // hipDeviceReset tears down the current device's streams and allocations only.
  OK(hipSetDevice(1));
  void* other_device_buffer = nullptr;
  OK(hipMalloc(&other_device_buffer, 64));
  OK(hipSetDevice(2));
  OK(hipDeviceReset());
  CHECK_HIP(hipStreamQuery(stream), hipErrorInvalidHandle);
  CHECK_HIP(hipFree(buffer), hipErrorInvalidValue);
  OK(hipFree(other_device_buffer));
  (void)hipGetLastError();

  int version = 0;
  OK(hipRuntimeGetVersion(&version));
  CHECK(version == HIP_VERSION);
  OK(hipDriverGetVersion(&version));
  CHECK(version == HIP_VERSION);
  int least = 0, greatest = 0;
  OK(hipDeviceGetStreamPriorityRange(&least, &greatest));
  CHECK(greatest <= least);
}

void test_default_device_count() {
  int count = -1;
  OK(hipGetDeviceCount(&count));
  CHECK(count == 1);
}

void test_invalid_device_count() {
  int count = -1;
  CHECK_HIP(hipGetDeviceCount(&count), hipErrorNoDevice);
  CHECK(count == 0);
  void* p = nullptr;
  CHECK_HIP(hipMalloc(&p, 16), hipErrorNoDevice);
  CHECK_HIP(hipInit(0), hipErrorNoDevice);
  CHECK_HIP(hipGetLastError(), hipErrorNoDevice);
  CHECK(std::string(hipGetErrorString(hipErrorNoDevice)) == "no ROCm-capable device is detected");
}

void test_memory() {
  // Every allocator aligns to 256 bytes, whatever the size.
  std::vector<void*> device_blocks;
  for (size_t size : {1, 3, 255, 256, 1000, 4097, 1 << 20}) {
    void* p = nullptr;
    OK(hipMalloc(&p, size));
    CHECK(p != nullptr && reinterpret_cast<uintptr_t>(p) % 256 == 0);
    device_blocks.push_back(p);
    void* h = nullptr;
    OK(hipHostMalloc(&h, size, 0));
    CHECK(h != nullptr && reinterpret_cast<uintptr_t>(h) % 256 == 0);
    OK(hipHostFree(h));
    void* m = nullptr;
    OK(hipMallocManaged(&m, size, hipMemAttachGlobal));
    CHECK(m != nullptr && reinterpret_cast<uintptr_t>(m) % 256 == 0);
    OK(hipFree(m));
  }
  for (void* p : device_blocks) OK(hipFree(p));

  // memset / memcpy round trip through two device buffers.
  const size_t n = 4096;
  std::vector<unsigned char> source(n), result(n, 0);
  for (size_t i = 0; i < n; ++i) source[i] = static_cast<unsigned char>(i * 7 + 1);
  void *a = nullptr, *b = nullptr;
  OK(hipMalloc(&a, n));
  OK(hipMalloc(&b, n));
  OK(hipMemset(a, 0xAB, n));
  OK(hipMemcpy(result.data(), a, n, hipMemcpyDeviceToHost));
  CHECK(result[0] == 0xAB && result[n - 1] == 0xAB);
  OK(hipMemcpy(a, source.data(), n, hipMemcpyHostToDevice));
  OK(hipMemcpy(b, a, n, hipMemcpyDeviceToDevice));
  OK(hipMemcpy(result.data(), b, n, hipMemcpyDefault));
  CHECK(result == source);
  OK(hipMemcpyHtoD(a, result.data(), 16));
  OK(hipMemcpyDtoD(b, a, 16));
  std::vector<unsigned char> small(16);
  OK(hipMemcpyDtoH(small.data(), b, 16));
  CHECK(std::memcmp(small.data(), source.data(), 16) == 0);
  OK(hipMemsetD32(a, 0x01020304, n / 4));
  CHECK(static_cast<uint32_t*>(a)[n / 4 - 1] == 0x01020304u);
  OK(hipMemsetD16(a, 0xBEEF, 8));
  CHECK(static_cast<uint16_t*>(a)[7] == 0xBEEF && static_cast<uint32_t*>(a)[4] == 0x01020304u);
  CHECK_HIP(hipMemcpy(b, a, 16, static_cast<hipMemcpyKind>(7)), hipErrorInvalidMemcpyDirection);
  CHECK_HIP(hipMemcpy(nullptr, a, 16, hipMemcpyDefault), hipErrorInvalidValue);

  // Pointer attributes: type of what we allocated, ranges, and foreign memory.
  void* host = nullptr;
  void* managed = nullptr;
  OK(hipHostMalloc(&host, 128, hipHostMallocMapped));
  OK(hipMallocManaged(&managed, 128, hipMemAttachGlobal));
  hipPointerAttribute_t attributes;
  OK(hipPointerGetAttributes(&attributes, static_cast<char*>(a) + 100));  // interior pointer
  CHECK(attributes.type == hipMemoryTypeDevice && attributes.devicePointer == static_cast<char*>(a) + 100);
  OK(hipPointerGetAttributes(&attributes, host));
  CHECK(attributes.type == hipMemoryTypeHost && attributes.hostPointer == host);
  CHECK(attributes.allocationFlags == hipHostMallocMapped);
  OK(hipPointerGetAttributes(&attributes, managed));
  CHECK(attributes.type == hipMemoryTypeManaged && attributes.isManaged == 1);
  int on_stack = 0;
  OK(hipPointerGetAttributes(&attributes, &on_stack));
  CHECK(attributes.type == hipMemoryTypeUnregistered);
  void* base = nullptr;
  size_t size = 0;
  OK(hipMemGetAddressRange(&base, &size, static_cast<char*>(b) + 5));
  CHECK(base == b && size == n);
  void* mapped = nullptr;
  OK(hipHostGetDevicePointer(&mapped, host, 0));
  CHECK(mapped == host);

  // Registration of user memory.
  std::vector<char> user(1000);
  OK(hipHostRegister(user.data(), user.size(), hipHostRegisterDefault));
  CHECK_HIP(hipHostRegister(user.data() + 10, 10, 0), hipErrorHostMemoryAlreadyRegistered);
  OK(hipPointerGetAttributes(&attributes, user.data() + 999));
  CHECK(attributes.type == hipMemoryTypeHost);
  CHECK_HIP(hipFree(user.data()), hipErrorInvalidValue);  // registered, not ours to free
  OK(hipHostUnregister(user.data()));
  CHECK_HIP(hipHostUnregister(user.data()), hipErrorHostMemoryNotRegistered);

  // Freeing rules.
  OK(hipFree(nullptr));
  OK(hipHostFree(nullptr));
  CHECK_HIP(hipFree(&on_stack), hipErrorInvalidValue);
  CHECK_HIP(hipFree(static_cast<char*>(a) + 1), hipErrorInvalidValue);
  CHECK_HIP(hipHostFree(a), hipErrorInvalidValue);  // device memory
  OK(hipFree(a));
  CHECK_HIP(hipFree(a), hipErrorInvalidValue);  // double free
  OK(hipFree(b));
  OK(hipHostFree(host));
  OK(hipFree(managed));

  void* empty = reinterpret_cast<void*>(1);
  OK(hipMalloc(&empty, 0));
  CHECK(empty == nullptr);
  void* huge = nullptr;
  CHECK_HIP(hipMalloc(&huge, size_t{1} << 62), hipErrorOutOfMemory);
  CHECK(huge == nullptr);

  size_t free_bytes = 0, total_bytes = 0;
  OK(hipMemGetInfo(&free_bytes, &total_bytes));
  CHECK(total_bytes > 0 && free_bytes > 0 && free_bytes <= total_bytes);
}

void test_async_stream() {
  hipStream_t stream;
  OK(hipStreamCreate(&stream));
  OK(hipStreamQuery(stream));  // empty stream is complete

  const size_t n = 1 << 16;
  std::vector<int> source(n), dst(n, -1);
  for (size_t i = 0; i < n; ++i) source[i] = static_cast<int>(i);
  void* device = nullptr;
  OK(hipMalloc(&device, n * sizeof(int)));

  Gate gate;
  OK(hipLaunchHostFunc(stream, Gate::block, &gate));
  OK(hipMemcpyAsync(device, source.data(), n * sizeof(int), hipMemcpyHostToDevice, stream));
  OK(hipMemcpyAsync(dst.data(), device, n * sizeof(int), hipMemcpyDeviceToHost, stream));
  gate.wait_until_entered();
  sleep_ms(20);
  // The copies are queued behind the blocked host function: nothing happened yet.
  CHECK_HIP(hipStreamQuery(stream), hipErrorNotReady);
  CHECK(dst[0] == -1 && dst[n - 1] == -1);
  CHECK_HIP(hipPeekAtLastError(), hipSuccess);  // hipErrorNotReady is not sticky
  gate.release();
  OK(hipStreamSynchronize(stream));
  OK(hipStreamQuery(stream));
  CHECK(dst == source);

  // Many host functions run in submission order, on one thread that is not ours.
  OrderLog log;
  std::vector<LogEntry> entries;
  entries.reserve(500);
  for (int i = 0; i < 500; ++i) entries.push_back(LogEntry{&log, i});
  for (LogEntry& entry : entries) OK(hipLaunchHostFunc(stream, LogEntry::append, &entry));
  OK(hipStreamSynchronize(stream));
  bool in_order = log.entries.size() == 500;
  for (int i = 0; in_order && i < 500; ++i) in_order = log.entries[i] == i;
  CHECK(in_order);

  // hipStreamAddCallback passes the handle and hipSuccess through.
  struct CallbackSeen {
    hipStream_t stream = nullptr;
    hipError_t status = hipErrorUnknown;
    std::thread::id thread;
  } seen;
  OK(hipStreamAddCallback(
      stream,
      [](hipStream_t s, hipError_t status, void* user) {
        auto* out = static_cast<CallbackSeen*>(user);
        out->stream = s;
        out->status = status;
        out->thread = std::this_thread::get_id();
      },
      &seen, 0));
  OK(hipStreamSynchronize(stream));
  CHECK(seen.stream == stream && seen.status == hipSuccess);
  CHECK(seen.thread != std::this_thread::get_id());

  unsigned int flags = 99;
  OK(hipStreamGetFlags(stream, &flags));
  CHECK(flags == hipStreamDefault);
  hipStream_t non_blocking;
  OK(hipStreamCreateWithFlags(&non_blocking, hipStreamNonBlocking));
  OK(hipStreamGetFlags(non_blocking, &flags));
  CHECK(flags == hipStreamNonBlocking);
  hipStream_t prioritized;
  OK(hipStreamCreateWithPriority(&prioritized, hipStreamDefault, -100));
  int priority = 0, least = 0, greatest = 0;
  OK(hipDeviceGetStreamPriorityRange(&least, &greatest));
  OK(hipStreamGetPriority(prioritized, &priority));
  CHECK(priority == greatest);  // clamped
  CHECK_HIP(hipStreamCreateWithFlags(&prioritized, 0x80), hipErrorInvalidValue);

  // Destroy drains queued work first; the handle is then invalid.
  std::atomic<int> ran{0};
  Gate slow;
  OK(hipLaunchHostFunc(stream, Gate::block, &slow));
  OK(hipLaunchHostFunc(stream, set_flag, &ran));
  std::thread opener([&] { slow.wait_until_entered(); sleep_ms(20); slow.release(); });
  OK(hipStreamDestroy(stream));
  opener.join();
  CHECK(ran.load() == 1);
  CHECK_HIP(hipStreamQuery(stream), hipErrorInvalidHandle);
  CHECK_HIP(hipStreamDestroy(stream), hipErrorInvalidHandle);
  CHECK_HIP(hipStreamDestroy(nullptr), hipErrorInvalidHandle);
  OK(hipStreamDestroy(non_blocking));
  OK(hipStreamDestroy(prioritized));
  OK(hipFree(device));
  CHECK_HIP(hipGetLastError(), hipErrorInvalidHandle);  // the last expected failure above
}

void test_stream_wait_event() {
  hipStream_t producer, consumer;
  OK(hipStreamCreateWithFlags(&producer, hipStreamNonBlocking));
  OK(hipStreamCreateWithFlags(&consumer, hipStreamNonBlocking));
  hipEvent_t produced;
  OK(hipEventCreateWithFlags(&produced, hipEventDisableTiming));

  int value_in_device = 0, copied = -1;
  const int payload = 42;
  Gate gate;
  OK(hipLaunchHostFunc(producer, Gate::block, &gate));
  OK(hipMemcpyAsync(&value_in_device, &payload, sizeof(int), hipMemcpyHostToDevice, producer));
  OK(hipEventRecord(produced, producer));
  OK(hipStreamWaitEvent(consumer, produced, 0));
  OK(hipMemcpyAsync(&copied, &value_in_device, sizeof(int), hipMemcpyDeviceToHost, consumer));
  gate.wait_until_entered();
  sleep_ms(20);
  CHECK_HIP(hipEventQuery(produced), hipErrorNotReady);
  CHECK_HIP(hipStreamQuery(consumer), hipErrorNotReady);
  CHECK(copied == -1);
  gate.release();
  OK(hipStreamSynchronize(consumer));
  CHECK(copied == 42);
  OK(hipEventQuery(produced));

  // Waiting on a never-recorded event does not block.
  hipEvent_t never;
  OK(hipEventCreate(&never));
  OK(hipStreamWaitEvent(consumer, never, 0));
  OK(hipStreamSynchronize(consumer));
  OK(hipEventDestroy(never));
  OK(hipEventDestroy(produced));
  OK(hipStreamDestroy(producer));
  OK(hipStreamDestroy(consumer));
}

void sleep_50ms(void*) { sleep_ms(50); }

void test_events() {
  hipStream_t stream;
  OK(hipStreamCreate(&stream));
  hipEvent_t start, stop;
  OK(hipEventCreate(&start));
  OK(hipEventCreate(&stop));
  float ms = -1;
  CHECK_HIP(hipEventElapsedTime(&ms, start, stop), hipErrorInvalidHandle);  // never recorded
  OK(hipEventQuery(start));
  OK(hipEventSynchronize(start));

  // Timestamps are taken when the stream reaches the record, not when it is enqueued.
  Gate gate;
  OK(hipLaunchHostFunc(stream, Gate::block, &gate));
  OK(hipEventRecord(start, stream));
  OK(hipLaunchHostFunc(stream, sleep_50ms, nullptr));
  OK(hipEventRecord(stop, stream));
  CHECK_HIP(hipEventElapsedTime(&ms, start, stop), hipErrorNotReady);
  sleep_ms(250);  // would inflate the measurement if stamps were taken at enqueue time
  gate.release();
  OK(hipEventSynchronize(stop));
  OK(hipEventElapsedTime(&ms, start, stop));
  CHECK(ms >= 50.0f && ms < 250.0f);
  float reverse = 0;
  OK(hipEventElapsedTime(&reverse, stop, start));
  CHECK(reverse <= -50.0f);

  hipEvent_t untimed;
  OK(hipEventCreateWithFlags(&untimed, hipEventDisableTiming));
  OK(hipEventRecord(untimed, stream));
  OK(hipEventSynchronize(untimed));
  CHECK_HIP(hipEventElapsedTime(&ms, start, untimed), hipErrorInvalidHandle);
  CHECK_HIP(hipEventCreateWithFlags(&untimed, 0x1000), hipErrorInvalidValue);

  OK(hipEventDestroy(untimed));
  OK(hipEventDestroy(start));
  OK(hipEventDestroy(stop));
  CHECK_HIP(hipEventRecord(stop, stream), hipErrorInvalidHandle);
  CHECK_HIP(hipEventDestroy(stop), hipErrorInvalidHandle);
  OK(hipStreamDestroy(stream));
}

void test_last_error() {
  CHECK_HIP(hipGetLastError(), hipSuccess);
  CHECK_HIP(hipSetDevice(99), hipErrorInvalidDevice);
  CHECK_HIP(hipPeekAtLastError(), hipErrorInvalidDevice);
  CHECK_HIP(hipPeekAtLastError(), hipErrorInvalidDevice);  // peek does not reset
  int count = 0;
  OK(hipGetDeviceCount(&count));  // a success does not clear it
  hipError_t other_thread = hipErrorUnknown;
  std::thread([&] { other_thread = hipPeekAtLastError(); }).join();
  CHECK(other_thread == hipSuccess);  // per thread
  CHECK_HIP(hipGetLastError(), hipErrorInvalidDevice);
  CHECK_HIP(hipGetLastError(), hipSuccess);  // get resets
  CHECK_HIP(hipMalloc(nullptr, 16), hipErrorInvalidValue);
  CHECK_HIP(hipEventSynchronize(nullptr), hipErrorInvalidHandle);
  CHECK_HIP(hipGetLastError(), hipErrorInvalidHandle);  // the most recent failure wins
  CHECK_HIP(hipExtGetLastError(), hipSuccess);
}

void test_error_names() {
  const std::map<hipError_t, std::pair<std::string, std::string>> expected = {
      {hipSuccess, {"hipSuccess", "no error"}},
      {hipErrorInvalidValue, {"hipErrorInvalidValue", "invalid argument"}},
      {hipErrorOutOfMemory, {"hipErrorOutOfMemory", "out of memory"}},
      {hipErrorInvalidDevice, {"hipErrorInvalidDevice", "invalid device ordinal"}},
      {hipErrorInvalidHandle, {"hipErrorInvalidHandle", "invalid resource handle"}},
      {hipErrorNotReady, {"hipErrorNotReady", "device not ready"}},
      {hipErrorNotSupported, {"hipErrorNotSupported", "operation not supported"}},
      {hipErrorInvalidMemcpyDirection,
       {"hipErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"}},
      {hipErrorUnknown, {"hipErrorUnknown", "unknown error"}},
  };
  for (const auto& [code, texts] : expected) {
    CHECK(texts.first == hipGetErrorName(code));
    CHECK(texts.second == hipGetErrorString(code));
  }
  CHECK(std::string(hipGetErrorName(static_cast<hipError_t>(12345))) == "hipErrorUnknown");
  const char* text = nullptr;
  OK(hipDrvGetErrorString(hipErrorNotReady, &text));
  CHECK(text != nullptr && std::string(text) == "device not ready");
}

void test_stub() {
  hipTextureObject_t texture = 0;  // textures are outside the emulator (kernels are not: see emu/kernel)
  CHECK_HIP(hipTexObjectCreate(&texture, nullptr, nullptr, nullptr), hipErrorNotSupported);
  CHECK_HIP(hipGetLastError(), hipErrorNotSupported);
  hipGraph_t graph = nullptr;
  CHECK_HIP(hipGraphCreate(&graph, 0), hipErrorNotSupported);
  CHECK_HIP(hipGetLastError(), hipErrorNotSupported);
  CHECK(hipApiName(1) == nullptr);  // a stub that does not return hipError_t
  CHECK_HIP(hipGetLastError(), hipErrorNotSupported);
}

void test_null_stream() {
  hipStream_t blocking, non_blocking;
  OK(hipStreamCreate(&blocking));
  OK(hipStreamCreateWithFlags(&non_blocking, hipStreamNonBlocking));

  // 1. Null-stream work waits for earlier work on blocking streams, not on non-blocking ones.
  Gate gate;
  std::atomic<int> null_ran{0}, non_blocking_ran{0};
  OK(hipLaunchHostFunc(blocking, Gate::block, &gate));
  OK(hipLaunchHostFunc(nullptr, set_flag, &null_ran));
  OK(hipLaunchHostFunc(non_blocking, set_flag, &non_blocking_ran));
  gate.wait_until_entered();
  OK(hipStreamSynchronize(non_blocking));  // completes although the blocking stream is stuck
  CHECK(non_blocking_ran.load() == 1);
  sleep_ms(20);
  CHECK(null_ran.load() == 0);
  CHECK_HIP(hipStreamQuery(nullptr), hipErrorNotReady);
  CHECK_HIP(hipStreamQuery(hipStreamLegacy), hipErrorNotReady);
  gate.release();
  OK(hipStreamSynchronize(nullptr));
  CHECK(null_ran.load() == 1);

  // 2. Blocking-stream work waits for earlier null-stream work; non-blocking work does not.
  Gate null_gate;
  std::atomic<int> blocking_ran{0};
  non_blocking_ran = 0;
  OK(hipLaunchHostFunc(hipStreamLegacy, Gate::block, &null_gate));
  OK(hipLaunchHostFunc(blocking, set_flag, &blocking_ran));
  OK(hipLaunchHostFunc(non_blocking, set_flag, &non_blocking_ran));
  null_gate.wait_until_entered();
  OK(hipStreamSynchronize(non_blocking));
  CHECK(non_blocking_ran.load() == 1);
  sleep_ms(20);
  CHECK(blocking_ran.load() == 0);
  CHECK_HIP(hipStreamQuery(blocking), hipErrorNotReady);
  null_gate.release();
  OK(hipStreamSynchronize(blocking));
  CHECK(blocking_ran.load() == 1);

  // 3. Synchronising the null stream (and hipMemcpy, which runs on it) covers blocking streams.
  Gate late_gate;
  std::atomic<int> late_ran{0};
  OK(hipLaunchHostFunc(blocking, Gate::block, &late_gate));
  OK(hipLaunchHostFunc(blocking, set_flag, &late_ran));
  std::thread opener([&] { late_gate.wait_until_entered(); sleep_ms(20); late_gate.release(); });
  int a = 1, b = 0;
  OK(hipMemcpy(&b, &a, sizeof(int), hipMemcpyHostToHost));
  CHECK(late_ran.load() == 1 && b == 1);
  opener.join();

  // 4. hipDeviceSynchronize waits for non-blocking streams too.
  Gate device_gate;
  std::atomic<int> device_ran{0};
  OK(hipLaunchHostFunc(non_blocking, Gate::block, &device_gate));
  OK(hipLaunchHostFunc(non_blocking, set_flag, &device_ran));
  std::thread opener2([&] { device_gate.wait_until_entered(); sleep_ms(20); device_gate.release(); });
  OK(hipDeviceSynchronize());
  CHECK(device_ran.load() == 1);
  opener2.join();

  // 5. Each device has its own null stream.
  Gate device0_gate;
  OK(hipLaunchHostFunc(nullptr, Gate::block, &device0_gate));
  device0_gate.wait_until_entered();
  OK(hipSetDevice(1));
  std::atomic<int> device1_ran{0};
  OK(hipLaunchHostFunc(nullptr, set_flag, &device1_ran));
  OK(hipStreamSynchronize(nullptr));
  CHECK(device1_ran.load() == 1);
  OK(hipSetDevice(0));
  CHECK_HIP(hipStreamQuery(nullptr), hipErrorNotReady);
  device0_gate.release();
  OK(hipDeviceSynchronize());

  OK(hipStreamDestroy(blocking));
  OK(hipStreamDestroy(non_blocking));
}

void test_per_thread_stream() {
  // Work on one thread's hipStreamPerThread does not hold up another thread's.
  Gate gate;
  std::atomic<int> ran{0};
  std::thread other([&] { (void)hipLaunchHostFunc(hipStreamPerThread, Gate::block, &gate); });
  gate.wait_until_entered();
  OK(hipLaunchHostFunc(hipStreamPerThread, set_flag, &ran));
  OK(hipStreamSynchronize(hipStreamPerThread));
  CHECK(ran.load() == 1);
  // The other thread's stream is blocking, so the legacy null stream waits for it.
  CHECK_HIP(hipStreamQuery(nullptr), hipErrorNotReady);
  gate.release();
  other.join();  // thread exit drains and destroys its per-thread stream
  OK(hipStreamQuery(nullptr));
  unsigned int flags = 99;
  OK(hipStreamGetFlags(hipStreamPerThread, &flags));
  CHECK(flags == hipStreamDefault);
  CHECK_HIP(hipStreamDestroy(hipStreamPerThread), hipErrorInvalidHandle);
}

}  // namespace

int main(int argc, char** argv) {
  const std::map<std::string, std::function<void()>> cases = {
      {"devices", test_devices},
      {"default_device_count", test_default_device_count},
      {"invalid_device_count", test_invalid_device_count},
      {"memory", test_memory},
      {"async_stream", test_async_stream},
      {"stream_wait_event", test_stream_wait_event},
      {"events", test_events},
      {"last_error", test_last_error},
      {"error_names", test_error_names},
      {"stub", test_stub},
      {"null_stream", test_null_stream},
      {"per_thread_stream", test_per_thread_stream},
  };
  auto selected = argc == 2 ? cases.find(argv[1]) : cases.end();
  if (selected == cases.end()) {
    std::fprintf(stderr, "usage: %s <case>; cases:", argv[0]);
    for (const auto& entry : cases) std::fprintf(stderr, " %s", entry.first.c_str());
    std::fprintf(stderr, "\n");
    return 2;
  }
  selected->second();
  if (failures != 0) {
    std::fprintf(stderr, "%s: %d check(s) failed\n", argv[1], failures);
    return 1;
  }
  std::printf("%s: passed\n", argv[1]);
  return 0;
}
