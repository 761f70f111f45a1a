// A kernel fault ends its PE and, through the rocSHMEM emulator's dead-peer path, the job.
// Usage: kernel_fault_pe_test <path-to-rocshmem-emu-run> <N>. Started by the runner as
// "kernel_fault_pe_test pe", the same binary plays the PEs: the last PE launches a kernel that
// writes through a null pointer; the others wait in rocshmem_barrier_all. The driver checks the
// victim's message (kernel, PE, block, thread) and exit status 70, that every survivor leaves
// with the dead-peer message and status 71, and that no /dev/shm object of the job remains.
#include <hip/hip_runtime.h>

#include "emu_process.hpp"
#include "emu_test.hpp"

using emu_process::contains;

namespace {

__global__ void fault_in_pe(int* base) {
  if (blockIdx.x == 1 && threadIdx.x == 5) base[2] = 1;  // base is null
}

int pe_main() {
  using namespace rocshmem;
  const int me = emu_test::init();
  const int npes = rocshmem_n_pes();
  void* heap = rocshmem_malloc(1 << 20);  // heap pages that could leak
  EMU_CHECK(heap != nullptr, "rocshmem_malloc failed");
  rocshmem_barrier_all();
  if (me == npes - 1) {
    hipLaunchKernelGGL(fault_in_pe, 2, 64, 0, 0, static_cast<int*>(nullptr));
    hipError_t status = hipDeviceSynchronize();
    printf("UNEXPECTED: PE %d survived its kernel fault (%s)\n", me, hipGetErrorName(status));
    return 0;
  }
  rocshmem_barrier_all();
  printf("UNEXPECTED: PE %d returned from a barrier with a faulted peer\n", me);
  return 0;
}

int driver_main(const std::string& runner, int n) {
  char self[4096];
  ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  if (len <= 0) return 2;
  self[len] = 0;
  const char* prefix = "rocshmem-emu-";
  auto before = emu_process::list_dir("/dev/shm", prefix);
  auto r = emu_process::run_capture({runner, "-n", std::to_string(n), "--keep-going", "--timeout", "60", "--",
                                     self, "pe"});
  auto after = emu_process::list_dir("/dev/shm", prefix);
  printf("%s", r.output.c_str());
  int failures = 0;
  auto check = [&](bool ok, const std::string& what) {
    if (!ok) fprintf(stderr, "FAIL kernel fault (%d PEs): %s\n", n, what.c_str()), ++failures;
  };
  const int victim = n - 1;
  const std::string v = std::to_string(victim);
  check(contains(r.output, "HIP emulator: PE " + v + ": kernel 'fault_in_pe', block (1,0,0), thread (5,0,0) "
                           "made an invalid memory access (SIGSEGV) at address 0x8"),
        "no fault message naming the kernel, PE, block and thread");
  check(contains(r.output, "rocshmem-emu-run: PE " + v + " exited with status 70"), "victim status is not 70");
  check(r.exit_code == 70, "job status " + std::to_string(r.exit_code) + ", expected the victim's 70");
  // Loose for a loaded 2-core machine: the PEs start, fault and stop well within it.
  check(r.seconds < 4.0, "the job took " + std::to_string(r.seconds) + " s");
  check(!contains(r.output, "UNEXPECTED"), "a PE went on after the fault");
  for (int pe = 0; pe < victim; ++pe) {
    check(contains(r.output, "[PE " + std::to_string(pe) + "] rocSHMEM emulator: PE " + std::to_string(pe) +
                                 ": peer PE "),
          "no dead-peer message from PE " + std::to_string(pe));
    check(contains(r.output, "rocshmem-emu-run: PE " + std::to_string(pe) + " exited with status 71"),
          "survivor PE " + std::to_string(pe) + " did not exit with 71 (stopped by another PE's failure)");
  }
  for (const auto& name : after)
    if (!before.count(name) && !emu_process::shm_object_in_use(name))
      check(false, "shared memory object left behind: /dev/shm/" + name);
  if (failures) return 1;
  printf("PASS kernel fault ends the job (%d PEs, %.2f s)\n", n, r.seconds);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]) == "pe") return pe_main();
  if (argc != 3) {
    fprintf(stderr, "usage: %s <rocshmem-emu-run> <N>\n", argv[0]);
    return 2;
  }
  return driver_main(argv[1], atoi(argv[2]));
}
