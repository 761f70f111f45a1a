// A _wg call that not every work-item of the block makes can never complete (a GPU would hang
// there): the emulator ends the job with status 70 and one message naming the call, the kernel,
// the block and how many work-items arrived. Device code on a PE without rocshmem_init ends the
// PE as a device fault.
// usage: test_device_partial <rocshmem-emu-run> <N>   (drives the runner on itself)
#include "device/device_test.hpp"
#include "emu_process.hpp"

#include <unistd.h>

#include <string>

using namespace rocshmem;

namespace {

__global__ void half_block_barrier(int* reached) {
  if (threadIdx.x < 32) rocshmem_barrier_all_wg();  // 32 of the 64 work-items of the block
  atomicAdd(reached, 1);
}

__global__ void wg_init_kernel() { rocshmem_wg_init(); }

// Device code on a PE that never called rocshmem_init: a GPU would fault or hang.
int pe_without_init() {
  hipLaunchKernelGGL(wg_init_kernel, dim3(1), dim3(64), 0, 0);
  (void)hipDeviceSynchronize();
  printf("UNEXPECTED: rocshmem_wg_init returned without rocshmem_init\n");
  return 0;
}

int pe_main() {
  emu_test::init();
  int* reached = device_test::device_alloc<int>(1);
  hipLaunchKernelGGL(half_block_barrier, dim3(1), dim3(64), 0, 0, reached);
  (void)hipDeviceSynchronize();
  printf("UNEXPECTED: the kernel with a partial rocshmem_barrier_all_wg completed (%d work-items)\n", *reached);
  rocshmem_finalize();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]) == "pe") return pe_main();
  if (argc == 2 && std::string(argv[1]) == "pe-without-init") return pe_without_init();
  if (argc != 3) {
    fprintf(stderr, "usage: %s <rocshmem-emu-run> <N>\n", argv[0]);
    return 2;
  }
  char self[4096];
  const ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  if (len <= 0) return 2;
  self[len] = 0;
  auto r = emu_process::run_capture({argv[1], "-n", argv[2], "--timeout", "60", "--", self, "pe"});
  printf("--- job (%s PEs, %.2f s, status %d) ---\n%s", argv[2], r.seconds, r.exit_code, r.output.c_str());
  int failures = 0;
  auto expect = [&](bool ok, const std::string& what) {
    if (!ok) fprintf(stderr, "FAIL partial _wg test: %s\n", what.c_str()), ++failures;
  };
  expect(r.exit_code == 70, "job status " + std::to_string(r.exit_code) + ", expected 70");
  expect(r.seconds < 30, "took " + std::to_string(r.seconds) + " s (a hang, not an error)");
  expect(!emu_process::contains(r.output, "UNEXPECTED"), "the kernel completed");
  for (const char* part : {"rocshmem_barrier_all_wg", "half_block_barrier", "block (0,0,0)", "32 work-item(s)"})
    expect(emu_process::contains(r.output, part), std::string("no '") + part + "' in the message");

  r = emu_process::run_capture({argv[1], "-n", argv[2], "--timeout", "60", "--", self, "pe-without-init"});
  printf("--- job without rocshmem_init (%s PEs, %.2f s, status %d) ---\n%s", argv[2], r.seconds, r.exit_code,
         r.output.c_str());
  expect(r.exit_code == 70, "job without init: status " + std::to_string(r.exit_code) + ", expected 70");
  expect(!emu_process::contains(r.output, "UNEXPECTED"), "wg_init returned without init");
  expect(emu_process::contains(r.output, "rocshmem_wg_init: rocSHMEM is not initialized"), "no message for wg_init");
  if (failures) return 1;
  printf("PASS partial _wg call ends the job with a message\n");
  return 0;
}
