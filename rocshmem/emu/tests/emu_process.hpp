// Helpers for the tests that drive rocshmem-emu-run as a black box: run a command with its
// combined output captured, check whether a pid still exists, list /dev/shm.
#pragma once

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <vector>

namespace emu_process {

inline double now_s() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

struct RunResult {
  int exit_code = -1;  // exit status, or 128+signal
  std::string output;  // stdout and stderr interleaved
  double seconds = 0;
};

// Runs argv to completion. The command itself is expected to bound its run time (the runner's
// --timeout); hard_limit_s is only a safety net that SIGKILLs it.
inline RunResult run_capture(const std::vector<std::string>& argv, double hard_limit_s = 60) {
  RunResult r;
  int p[2];
  if (pipe(p) != 0) { perror("pipe"); exit(2); }
  const double start = now_s();
  pid_t pid = fork();
  if (pid == 0) {
    dup2(p[1], 1);
    dup2(p[1], 2);
    close(p[0]);
    close(p[1]);
    std::vector<char*> args;
    for (auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    perror("execv");
    _exit(127);
  }
  close(p[1]);
  char buf[4096];
  bool killed = false;
  for (;;) {
    pollfd pfd{p[0], POLLIN, 0};
    int ready = poll(&pfd, 1, 100);
    if (ready > 0) {
      ssize_t n = read(p[0], buf, sizeof buf);
      if (n <= 0) break;
      r.output.append(buf, (size_t)n);
    }
    if (!killed && now_s() - start > hard_limit_s) {
      kill(pid, SIGKILL);
      killed = true;
      r.output += "\n[test] hard limit reached, command killed\n";
    }
  }
  close(p[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  r.seconds = now_s() - start;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

// True when the pid is gone (reaped). A zombie still counts as present: somebody failed to reap it.
inline bool pid_gone(pid_t pid) { return kill(pid, 0) == -1 && errno == ESRCH; }

inline std::set<std::string> list_dir(const char* dir, const std::string& prefix) {
  std::set<std::string> names;
  if (DIR* d = opendir(dir)) {
    while (dirent* e = readdir(d)) {
      std::string name = e->d_name;
      if (name.compare(0, prefix.size(), prefix) == 0 && name != "." && name != "..") names.insert(name);
    }
    closedir(d);
  }
  return names;
}

// True when a live process has /dev/shm/<name> mapped or open. After a job's processes are all
// gone, objects still in use belong to some other (concurrent) job, not to a leak of ours.
inline bool shm_object_in_use(const std::string& name) {
  const std::string path = "/dev/shm/" + name;
  DIR* proc = opendir("/proc");
  if (!proc) return false;
  bool in_use = false;
  while (dirent* e = readdir(proc)) {
    if (in_use) break;
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    const std::string dir = std::string("/proc/") + e->d_name;
    if (FILE* maps = fopen((dir + "/maps").c_str(), "r")) {
      char line[1024];
      while (!in_use && fgets(line, sizeof line, maps))
        if (strstr(line, path.c_str())) in_use = true;
      fclose(maps);
    }
    if (DIR* fds = opendir((dir + "/fd").c_str())) {
      while (dirent* f = readdir(fds)) {
        char target[512];
        ssize_t n = readlink((dir + "/fd/" + f->d_name).c_str(), target, sizeof target - 1);
        if (n > 0 && path == std::string(target, (size_t)n)) in_use = true;
      }
      closedir(fds);
    }
  }
  closedir(proc);
  return in_use;
}

inline bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

}  // namespace emu_process
