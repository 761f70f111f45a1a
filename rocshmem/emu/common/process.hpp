// Dead-peer detection for the emulators: is the process with this pid still running?
#pragma once

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace emu_common {

// True when the process with this pid is gone or a zombie (exited, nobody reaped it yet).
inline bool process_is_gone(int pid) {
  if (pid <= 0) return false;
  if (kill(pid, 0) != 0 && errno == ESRCH) return true;
  // A child that died but was not reaped yet still answers kill(); look at its state.
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/stat", pid);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char buf[512];
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return false;
  buf[n] = '\0';
  const char* close_paren = strrchr(buf, ')');
  if (!close_paren || close_paren[1] != ' ') return false;
  char state = close_paren[2];
  return state == 'Z' || state == 'X';
}

}  // namespace emu_common
