// Creating the emulators' shared-memory objects: both libraries create an object exclusively
// (O_EXCL), pin its mode and size, then map it shared. Where the name lives differs (rocSHMEM:
// files in ROCSHMEM_EMU_SHM_DIR, RCCL: shm_open), so the callers open and unlink; the rest is here.
#pragma once

#include <cerrno>
#include <cstddef>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

namespace emu_common {

// Pins a freshly created object to mode 0600 (the umask may have cleared bits but never adds any)
// and sizes it to `bytes`. false with errno set; the caller closes and unlinks.
inline bool own_and_size(int fd, size_t bytes) {
  return fchmod(fd, 0600) == 0 && ftruncate(fd, static_cast<off_t>(bytes)) == 0;
}

// Maps `bytes` of the object read-write and shared; nullptr with errno set on failure.
inline void* map_shared(int fd, size_t bytes) {
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  return p == MAP_FAILED ? nullptr : p;
}

}  // namespace emu_common
