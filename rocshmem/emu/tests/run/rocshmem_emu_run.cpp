// rocshmem-emu-run: start N processing elements (PEs) of one job on this node.
//
//   rocshmem-emu-run -n N [--nnodes K] [--timeout S] [--grace S] [--keep-going] [--job-id ID] -- prog args...
//
// Each child gets RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE and ROCSHMEM_EMU_JOB_ID (random
// unless --job-id is given), so the emulator's PEs find each other. Child output is forwarded line
// by line with a "[PE r] " prefix (stdout to stdout, stderr to stderr).
//
// Failure policy: the first child that exits non-zero or dies of a signal decides the exit status
// (its code, or 128+signal). Unless --keep-going is given, the others are then stopped: SIGTERM to
// the whole process group, SIGKILL after the grace period. --timeout expiry stops everything and
// exits 124 (unless a PE had already failed, whose status then wins). A PE that exits 71 was stopped
// because another PE failed (the rocSHMEM emulator's status, docs/reliability.md): it decides only
// if no PE exits with another failure within 1 s, which names the PE that failed. The runner is a child
// subreaper and waits for every descendant, so nothing outlives it. When they are all gone it
// removes the shared-memory objects they created and could not remove themselves (a PE killed
// during init): the emulator names every object after its creator's pid (see the emulator's
// shm_objects.hpp), in ROCSHMEM_EMU_SHM_DIR or /dev/shm.
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <set>
#include <string>
#include <vector>

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

struct Options {
  int n_pes = 0;
  double timeout_s = 0;  // 0 = no timeout
  double grace_s = 2;
  bool keep_going = false;
  int nnodes = 1;  // simulated nodes: ranks are split into nnodes consecutive groups
  std::string job_id;
  std::vector<char*> command;
};

// One forwarded output stream of one child: a pipe end plus the unfinished last line.
struct Stream {
  int fd = -1;
  int out_fd = 1;
  std::string prefix;
  std::string pending;
};

struct Child {
  pid_t pid = -1;
  bool running = false;
};

volatile sig_atomic_t g_interrupt_signal = 0;

void on_interrupt(int sig) { g_interrupt_signal = sig; }

[[noreturn]] void usage(const char* msg) {
  if (msg) fprintf(stderr, "rocshmem-emu-run: %s\n", msg);
  fprintf(stderr,
          "usage: rocshmem-emu-run -n N [--nnodes K] [--timeout S] [--grace S] [--keep-going] [--job-id ID]"
          " -- program [args...]\n");
  exit(2);
}

// Whole, finite, non-negative seconds ("1.5", not "nan", "inf", "-1" or "2x").
double parse_seconds(const char* s, const char* what) {
  char* end = nullptr;
  errno = 0;
  double v = strtod(s, &end);
  if (end == s || *end || errno == ERANGE || !std::isfinite(v) || v < 0) usage(what);
  return v;
}

int parse_pe_count(const char* s) {
  char* end = nullptr;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (end == s || *end || errno == ERANGE || v < 1 || v > 4096) usage("-n expects a whole number of PEs in 1..4096");
  return static_cast<int>(v);
}

Options parse_args(int argc, char** argv) {
  Options o;
  int i = 1;
  for (; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](const char* what) {
      if (i + 1 >= argc) usage(what);
      return argv[++i];
    };
    if (a == "--") { ++i; break; }
    if (a == "-n" || a == "--np") {
      o.n_pes = parse_pe_count(value("-n needs a number"));
    } else if (a == "--timeout") {
      o.timeout_s = parse_seconds(value("--timeout needs seconds"), "--timeout expects finite seconds >= 0 (0 = none)");
    } else if (a == "--grace") {
      o.grace_s = parse_seconds(value("--grace needs seconds"), "--grace expects finite seconds >= 0");
    } else if (a == "--nnodes") {
      o.nnodes = parse_pe_count(value("--nnodes needs a number"));
    } else if (a == "--keep-going") {
      o.keep_going = true;
    } else if (a == "--job-id") {
      o.job_id = value("--job-id needs a value");
    } else if (a == "-h" || a == "--help") {
      usage(nullptr);
    } else {
      usage(("unknown option " + a).c_str());
    }
  }
  if (o.n_pes < 1) usage("-n N (N >= 1) is required");
  if (o.n_pes % o.nnodes != 0) usage("--nnodes K must divide -n N (every simulated node runs N/K PEs)");
  if (i >= argc) usage("missing program after --");
  for (; i < argc; ++i) o.command.push_back(argv[i]);
  o.command.push_back(nullptr);
  return o;
}

double now_s() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

std::string random_job_id() {
  unsigned char bytes[8] = {};
  int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  if (fd < 0 || read(fd, bytes, sizeof bytes) != (ssize_t)sizeof bytes) {
    // Fall back to something still unique per run on this node.
    unsigned long long v = (unsigned long long)getpid() << 32 ^ (unsigned long long)(now_s() * 1e9);
    memcpy(bytes, &v, sizeof bytes);
  }
  if (fd >= 0) close(fd);
  char hex[17];
  for (int i = 0; i < 8; ++i) snprintf(hex + 2 * i, 3, "%02x", bytes[i]);
  return hex;
}

void write_all(int fd, const char* data, size_t len) {
  while (len > 0) {
    ssize_t w = write(fd, data, len);
    if (w < 0) {
      if (errno == EINTR) continue;
      return;  // our own stdout is gone; nothing sensible left to do with the output
    }
    data += w;
    len -= (size_t)w;
  }
}

// Emit every complete line in s.pending (all of it when at_eof) with the PE prefix.
void flush_lines(Stream& s, bool at_eof) {
  size_t start = 0;
  for (;;) {
    size_t nl = s.pending.find('\n', start);
    if (nl == std::string::npos) break;
    std::string line = s.prefix + s.pending.substr(start, nl + 1 - start);
    write_all(s.out_fd, line.data(), line.size());
    start = nl + 1;
  }
  s.pending.erase(0, start);
  if (at_eof && !s.pending.empty()) {
    std::string line = s.prefix + s.pending + "\n";
    write_all(s.out_fd, line.data(), line.size());
    s.pending.clear();
  }
}

// Read what is available on every open stream, waiting at most timeout_ms.
void pump_output(std::vector<Stream>& streams, int timeout_ms) {
  std::vector<pollfd> fds;
  std::vector<Stream*> owners;
  for (auto& s : streams) {
    if (s.fd < 0) continue;
    fds.push_back({s.fd, POLLIN, 0});
    owners.push_back(&s);
  }
  if (fds.empty()) {
    if (timeout_ms > 0) usleep(timeout_ms * 1000);
    return;
  }
  int r = poll(fds.data(), fds.size(), timeout_ms);
  if (r <= 0) return;
  char buf[65536];
  for (size_t i = 0; i < fds.size(); ++i) {
    if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
    Stream& s = *owners[i];
    ssize_t n = read(s.fd, buf, sizeof buf);
    if (n > 0) {
      s.pending.append(buf, (size_t)n);
      flush_lines(s, false);
    } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
      flush_lines(s, true);
      close(s.fd);
      s.fd = -1;
    }
  }
}

// SIGKILL every direct child (re-parented descendants included, thanks to the subreaper flag).
// Catches descendants that left the job's process group, e.g. through setsid().
void kill_direct_children() {
  DIR* proc = opendir("/proc");
  if (!proc) return;
  const pid_t self = getpid();
  while (dirent* e = readdir(proc)) {
    char* end;
    long pid = strtol(e->d_name, &end, 10);
    if (*end || pid <= 0) continue;
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) continue;
    buf[n] = 0;
    const char* after_name = strrchr(buf, ')');  // the command name may contain spaces
    char state;
    long ppid;
    if (after_name && sscanf(after_name + 1, " %c %ld", &state, &ppid) == 2 && ppid == self)
      kill((pid_t)pid, SIGKILL);
  }
  closedir(proc);
}

// Removes the emulator objects created by the given (dead) processes; returns how many.
int sweep_shm_objects(const std::set<pid_t>& pids) {
  const char* configured = getenv("ROCSHMEM_EMU_SHM_DIR");
  const std::string dir = configured && *configured ? configured : "/dev/shm";
  struct stat ns;
  const std::string pidns = stat("/proc/self/ns/pid", &ns) == 0 ? std::to_string(ns.st_ino) : "0";
  int removed = 0;
  // rocshmem-emu-<pid namespace>-<creator pid>-<role>-<token>
  const std::string prefix = "rocshmem-emu-" + pidns + "-";
  DIR* d = opendir(dir.c_str());
  if (!d) return 0;
  while (dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    char* end = nullptr;
    long pid = strtol(name.c_str() + prefix.size(), &end, 10);
    if (*end != '-' || !pids.count(static_cast<pid_t>(pid))) continue;
    if (unlink((dir + "/" + name).c_str()) == 0) removed++;
  }
  closedir(d);
  return removed;
}

int status_to_exit_code(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

[[noreturn]] void exec_child(const Options& o, int rank, const std::string& job_id, int out_w,
                             int err_w, pid_t parent) {
  // Die with the runner even if it is SIGKILLed (the process group kill cannot run then).
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(127);
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  signal(SIGHUP, SIG_DFL);
  dup2(out_w, 1);
  dup2(err_w, 2);
  // Simulated nodes (--nnodes): LOCAL_* describe this rank's group, which the emulator treats as
  // one node (ROCSHMEM_TEAM_SHARED, rocshmem_ptr).
  const int per_node = o.n_pes / o.nnodes;
  std::string r = std::to_string(rank), n = std::to_string(o.n_pes);
  std::string local_rank = std::to_string(rank % per_node), local_size = std::to_string(per_node);
  setenv("RANK", r.c_str(), 1);
  setenv("LOCAL_RANK", local_rank.c_str(), 1);
  setenv("WORLD_SIZE", n.c_str(), 1);
  setenv("LOCAL_WORLD_SIZE", local_size.c_str(), 1);
  setenv("ROCSHMEM_EMU_JOB_ID", job_id.c_str(), 1);
  // An outer MPI launcher's variables would contradict ours.
  unsetenv("OMPI_COMM_WORLD_RANK");
  unsetenv("OMPI_COMM_WORLD_SIZE");
  unsetenv("OMPI_COMM_WORLD_LOCAL_RANK");
  unsetenv("OMPI_COMM_WORLD_LOCAL_SIZE");
  execvp(o.command[0], o.command.data());
  fprintf(stderr, "rocshmem-emu-run: cannot execute %s: %s\n", o.command[0], strerror(errno));
  _exit(127);
}

}  // namespace

int main(int argc, char** argv) {
  Options o = parse_args(argc, argv);
  std::string job_id = o.job_id.empty() ? random_job_id() : o.job_id;

  // Orphaned grandchildren are re-parented to us, so we can reap them too.
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  struct sigaction sa = {};
  sa.sa_handler = on_interrupt;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGHUP, &sa, nullptr);
  signal(SIGPIPE, SIG_IGN);

  std::vector<Child> children(o.n_pes);
  std::vector<Stream> streams;
  pid_t group = 0;  // all children share one process group led by the first one
  pid_t self = getpid();

  for (int rank = 0; rank < o.n_pes; ++rank) {
    int out_p[2], err_p[2];
    if (pipe2(out_p, O_CLOEXEC) || pipe2(err_p, O_CLOEXEC)) {
      perror("rocshmem-emu-run: pipe");
      if (group) kill(-group, SIGKILL);
      return 1;
    }
    pid_t pid = fork();
    if (pid < 0) {
      perror("rocshmem-emu-run: fork");
      if (group) kill(-group, SIGKILL);
      return 1;
    }
    if (pid == 0) {
      setpgid(0, group);
      exec_child(o, rank, job_id, out_p[1], err_p[1], self);
    }
    setpgid(pid, group);  // also done in the child: whichever runs first wins the race
    if (!group) group = pid;
    children[rank].pid = pid;
    children[rank].running = true;
    close(out_p[1]);
    close(err_p[1]);
    std::string prefix = "[PE " + std::to_string(rank) + "] ";
    streams.push_back({out_p[0], 1, prefix, {}});
    streams.push_back({err_p[0], 2, prefix, {}});
  }

  // The rocSHMEM emulator's status for a PE stopped because another PE failed (kStoppedByPeerExitStatus).
  constexpr int kStoppedByPeer = 71;
  constexpr double kRootCauseWaitS = 1.0;
  const double start = now_s();
  double provisional_since = -1;  // the first failure was a 71: waiting for the PE that caused it
  std::set<pid_t> reaped;  // every process we waited for: their shm objects are swept at the end
  int exit_code = 0;
  bool failed = false;
  double term_sent_at = -1;  // when SIGTERM went to the group; SIGKILL follows after grace
  bool kill_sent = false;
  int running = o.n_pes;

  auto stop_all = [&](const char* why) {
    if (term_sent_at >= 0) return;
    if (why) fprintf(stderr, "rocshmem-emu-run: %s; stopping the remaining PEs\n", why);
    kill(-group, SIGTERM);
    term_sent_at = now_s();
  };

  while (running > 0) {
    pump_output(streams, 20);

    int status;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
      reaped.insert(pid);
      for (int rank = 0; rank < o.n_pes; ++rank) {
        Child& c = children[rank];
        if (c.pid != pid || !c.running) continue;
        c.running = false;
        --running;
        int code = status_to_exit_code(status);
        if (code == 0) continue;
        char why[128];
        if (WIFSIGNALED(status))
          snprintf(why, sizeof why, "PE %d was killed by signal %d", rank, WTERMSIG(status));
        else
          snprintf(why, sizeof why, "PE %d exited with status %d", rank, code);
        const bool root_cause = provisional_since >= 0 && code != kStoppedByPeer;
        if (!failed || root_cause) {
          failed = true;
          exit_code = code;
          provisional_since = (!root_cause && code == kStoppedByPeer) ? now_s() : -1;
          if (o.keep_going)
            fprintf(stderr, "rocshmem-emu-run: %s\n", why);
          else if (provisional_since < 0)
            stop_all(why);
        } else if (o.keep_going) {
          // Later failures are only news when we did not cause them ourselves.
          fprintf(stderr, "rocshmem-emu-run: %s\n", why);
        }
      }
    }

    if (provisional_since >= 0 && now_s() - provisional_since > kRootCauseWaitS) {
      provisional_since = -1;
      if (!o.keep_going) stop_all("a PE was stopped by another PE's failure, which did not exit");
    }
    if (g_interrupt_signal && term_sent_at < 0) {
      if (!failed) { failed = true; exit_code = 128 + g_interrupt_signal; }
      stop_all("interrupted");
    }
    if (o.timeout_s > 0 && term_sent_at < 0 && now_s() - start > o.timeout_s) {
      if (!failed) exit_code = 124;  // an earlier PE failure is the more useful status
      failed = true;
      char why[96];
      snprintf(why, sizeof why, "timeout after %g s", o.timeout_s);
      stop_all(why);
    }
    if (term_sent_at >= 0 && !kill_sent && now_s() - term_sent_at > o.grace_s) {
      kill(-group, SIGKILL);
      kill_sent = true;
    }
  }

  // Every PE is gone. Descendants they left behind (same group, or re-parented to us) go too.
  kill(-group, SIGKILL);
  kill_direct_children();
  const double reap_deadline = now_s() + 5;
  for (;;) {
    int status;
    pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid < 0 && errno == ECHILD) break;
    if (pid > 0) reaped.insert(pid);
    if (pid == 0) {
      kill_direct_children();
      if (now_s() > reap_deadline) {
        fprintf(stderr, "rocshmem-emu-run: some descendants outside the job's process group "
                        "did not exit\n");
        break;
      }
      pump_output(streams, 10);
    }
  }
  // Drain what is left in the pipes (writers are gone, so this ends at EOF).
  const double drain_deadline = now_s() + 2;
  for (;;) {
    bool open = false;
    for (auto& s : streams) open = open || s.fd >= 0;
    if (!open || now_s() > drain_deadline) break;
    pump_output(streams, 10);
  }
  for (auto& s : streams) flush_lines(s, true);
  if (int removed = sweep_shm_objects(reaped))
    fprintf(stderr, "rocshmem-emu-run: removed %d shared-memory object(s) left by PEs that died during init\n", removed);
  return failed ? exit_code : 0;
}
