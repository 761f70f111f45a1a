// The emulator's code object (.emuco): a text header, then an ELF shared object.
//
//   ROCSHMEM-EMU-CODE-OBJECT 2                                     (1 is read too: no param lines)
//   kernel <name> params=<n> sizes=<s1>,<s2>,... aligns=<a1>,... [uses-rocshmem]
//   param <position> <name|-> <pointer|value> <C type>              (per parameter; read by Java only)
//   global <name> size=<bytes>
//   end
//   <the bytes of the shared object, to the end of the file>
//
// Written by rocshmem-emu-hipcc (kernel/bin); read here by hipModuleLoad/LoadData and by Java.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace hip_emu {

struct CodeObjectKernel {
  std::string name;
  std::vector<unsigned> sizes;
  std::vector<unsigned> aligns;
  bool uses_rocshmem = false;
};

struct CodeObject {
  std::vector<CodeObjectKernel> kernels;
  std::map<std::string, size_t> globals;  // name -> bytes
  size_t elf_offset = 0;                   // where the shared object starts
};

// Parses `size` bytes (a whole file). false + `error` naming the line for anything malformed.
bool parse_code_object(const unsigned char* data, size_t size, CodeObject* out, std::string* error);

// hipModuleLoadData gets no size: the ELF's section header table ends the image (e_shoff +
// e_shnum * e_shentsize, where linkers put it). false + error when `data` is not a code object.
bool code_object_size(const unsigned char* data, size_t* size, std::string* error);

}  // namespace hip_emu
