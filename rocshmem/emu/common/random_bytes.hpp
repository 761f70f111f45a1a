// Cryptographically random bytes for the emulator libraries (unique ids, object names, bootstrap secrets).
// Header-only because librocshmem_cpu_emu and librccl_cpu_emu share no library of their own.
#pragma once

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <sys/random.h>
#include <sys/types.h>

namespace emu_common {

// Fills buf with n bytes from getrandom; false if the kernel refuses.
inline bool random_bytes(void* buf, size_t n) {
  auto* p = static_cast<uint8_t*>(buf);
  while (n > 0) {
    ssize_t got = getrandom(p, n, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += got;
    n -= static_cast<size_t>(got);
  }
  return true;
}

}  // namespace emu_common
