// Where the emulator keeps its shared-memory objects, and how they are named so that nothing is
// ever left behind for good.
//
// Objects are files in one directory: ROCSHMEM_EMU_SHM_DIR, default /dev/shm (a tmpfs, like
// shm_open). Every name records who created it:
//     rocshmem-emu-<pid namespace>-<creator pid>-<role>-<token>
// role 'c' = control segment, 'h' = heap; the token always ends in a random part. Names exist
// only during init (every PE unlinks them once all PEs mapped everything), and whatever a dead
// process left behind is reclaimable by anyone who knows its pid: the launchers sweep the names
// of their PEs when the job ends, and every init sweeps the names of dead creators.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace rocshmem_emu {

constexpr const char* kObjectPrefix = "rocshmem-emu-";

struct ObjectName {
  std::string name;         // file name inside the directory
  unsigned long long pidns;  // inode of the creator's pid namespace
  int pid;                  // creator
  char role;                // 'c' or 'h'
  std::string token;
};

// The directory (without trailing slash) in use; set by init from the configuration.
const std::string& object_dir();
void set_object_dir(const std::string& dir);

// Inode of /proc/self/ns/pid (0 when unknown): names are only judged within one pid namespace.
unsigned long long own_pid_namespace();

// A fresh name for an object created by this process.
std::string new_object_name(char role, const std::string& token);

bool parse_object_name(const std::string& name, ObjectName* parsed);

// The emulator's objects in the directory (names that parse).
std::vector<ObjectName> list_objects();

// Creates a new 0600 object of `bytes` bytes (O_EXCL, never follows symlinks); fd or -1 + errno.
int create_object(const std::string& name, size_t bytes);
// Opens an existing object read-write; fd or -1 + errno (EPERM when another user owns it).
int open_object(const std::string& name);
void unlink_object(const std::string& name);

// Unlinks the objects of creators that are gone (same pid namespace, same user). Returns how many.
int sweep_dead_creators();

// Free bytes in the directory's file system; false when it has no limit (tmpfs size=0) or on error.
bool free_bytes(unsigned long long* bytes);

}  // namespace rocshmem_emu
