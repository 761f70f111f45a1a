// Kernel of an emulator code object (rocshmem-emu-hipcc), loaded by test_device_rma with
// hipModuleLoad: one work-group moves the whole array to the right neighbour with a _wg put.
#include <hip/hip_runtime.h>
#include <rocshmem/rocshmem.hpp>

extern "C" __global__ void device_ring_putmem_wg(int* dst, const int* src, size_t n, int right) {
  rocshmem::rocshmem_wg_init();
  rocshmem::rocshmem_putmem_wg(dst, src, n * sizeof(int), right);
  rocshmem::rocshmem_quiet();
  rocshmem::rocshmem_wg_finalize();
}
