// TEMPORARY host-only stand-in for the scheduler's C ABI (no kernels run): deleted when the
// kernel-engine branch is merged.
#include <cstdio>
#include <cstdlib>

#include "rocshmem_emu_workitem.h"

extern "C" {
int rocshmem_emu_wi_in_kernel(void) { return 0; }
void rocshmem_emu_wi_yield(void) {}
void rocshmem_emu_wi_ids(unsigned t[3], unsigned b[3], unsigned bd[3], unsigned gd[3]) {
  for (int i = 0; i < 3; i++) t[i] = b[i] = 0, bd[i] = gd[i] = 1;
}
unsigned rocshmem_emu_wi_flat_thread(void) { return 0; }
unsigned rocshmem_emu_wi_block_size(void) { return 1; }
unsigned rocshmem_emu_wi_lane(void) { return 0; }
unsigned rocshmem_emu_wi_wave_size(void) { return 1; }
const char* rocshmem_emu_wi_kernel_name(void) { return "(host)"; }
int rocshmem_emu_wi_group_enter(int, const char*) { return 1; }
void rocshmem_emu_wi_group_leave(int) {}
void rocshmem_emu_wi_fault(const char* what) {
  fprintf(stderr, "device fault: %s\n", what);
  exit(70);
}
int rocshmem_emu_wi_module_mark_rocshmem(void*) { return 1; }
}
