#include "hip_emu_kernel.hpp"

#include <elf.h>

#include <cstring>
#include <sstream>

namespace hip_emu {
namespace {

// Versions 1 and 2 (2 adds "param" lines, which only Java reads: names and C types for messages).
constexpr char kMagic[] = "ROCSHMEM-EMU-CODE-OBJECT ";
bool known_version(unsigned char digit) { return digit == '1' || digit == '2'; }
constexpr size_t kMaxHeader = 1 << 20;  // a header line per kernel and global

bool parse_list(const std::string& field, const char* key, std::vector<unsigned>* out) {
  const size_t key_length = strlen(key);
  if (field.compare(0, key_length, key) != 0) return false;
  std::string rest = field.substr(key_length);
  out->clear();
  if (rest.empty()) return true;
  std::istringstream items(rest);
  std::string item;
  while (std::getline(items, item, ',')) {
    if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos) return false;
    out->push_back(static_cast<unsigned>(std::stoul(item)));
  }
  return true;
}

bool parse_kernel(std::istringstream& fields, CodeObjectKernel* kernel) {
  std::string params, sizes, aligns, flag;
  if (!(fields >> kernel->name >> params >> sizes >> aligns)) return false;
  std::vector<unsigned> count;
  if (!parse_list(params, "params=", &count) || count.size() != 1) return false;
  if (!parse_list(sizes, "sizes=", &kernel->sizes) || !parse_list(aligns, "aligns=", &kernel->aligns)) {
    return false;
  }
  if (kernel->sizes.size() != count[0] || kernel->aligns.size() != count[0]) return false;
  for (unsigned align : kernel->aligns) {
    if (align == 0 || (align & (align - 1)) != 0) return false;
  }
  while (fields >> flag) {
    if (flag != "uses-rocshmem") return false;
    kernel->uses_rocshmem = true;
  }
  return true;
}

}  // namespace

bool parse_code_object(const unsigned char* data, size_t size, CodeObject* out, std::string* error) {
  const size_t magic_length = sizeof kMagic - 1;
  if (size < magic_length + 2 || memcmp(data, kMagic, magic_length) != 0) {
    *error = "not an emulator code object (no 'ROCSHMEM-EMU-CODE-OBJECT' header; compile the "
             "kernel with rocshmem-emu-hipcc)";
    return false;
  }
  if (!known_version(data[magic_length]) || data[magic_length + 1] != '\n') {
    *error = "an emulator code object of a format version this runtime does not read (it reads 1 and 2); "
             "rebuild the kernel with this release's rocshmem-emu-hipcc";
    return false;
  }
  size_t position = magic_length + 2;
  for (int line_number = 2;; ++line_number) {
    const void* newline = memchr(data + position, '\n', std::min(size - position, kMaxHeader));
    if (newline == nullptr) {
      *error = "the header has no 'end' line";
      return false;
    }
    size_t end = static_cast<const unsigned char*>(newline) - data;
    std::string line(reinterpret_cast<const char*>(data) + position, end - position);
    position = end + 1;
    std::istringstream fields(line);
    std::string kind;
    fields >> kind;
    if (kind == "end") break;
    if (kind == "kernel") {
      CodeObjectKernel kernel;
      if (!parse_kernel(fields, &kernel)) {
        *error = "header line " + std::to_string(line_number) + " is not a valid kernel line: " + line;
        return false;
      }
      out->kernels.push_back(std::move(kernel));
    } else if (kind == "param") {
      // "param <position> <name> <pointer|value> <C type>": for Java's messages; must follow a kernel line.
      if (out->kernels.empty()) {
        *error = "header line " + std::to_string(line_number) + " is a param line before any kernel line: " + line;
        return false;
      }
    } else if (kind == "global") {
      std::string name, size_field, extra;
      std::vector<unsigned> bytes;
      if (!(fields >> name >> size_field) || (fields >> extra) || !parse_list(size_field, "size=", &bytes) ||
          bytes.size() != 1) {
        *error = "header line " + std::to_string(line_number) + " is not a valid global line: " + line;
        return false;
      }
      out->globals[name] = bytes[0];
    } else {
      *error = "header line " + std::to_string(line_number) + " is unknown: " + line;
      return false;
    }
  }
  if (size - position < SELFMAG || memcmp(data + position, ELFMAG, SELFMAG) != 0) {
    *error = "no ELF shared object after the header";
    return false;
  }
  out->elf_offset = position;
  return true;
}

bool code_object_size(const unsigned char* data, size_t* size, std::string* error) {
  const size_t magic_length = sizeof kMagic - 1;
  // Byte by byte, stopping at the first difference: the image's length is unknown, and memcmp
  // may read all of its bytes.
  size_t matched = 0;
  while (matched < magic_length && data[matched] == static_cast<unsigned char>(kMagic[matched])) ++matched;
  if (matched != magic_length || !known_version(data[magic_length]) || data[magic_length + 1] != '\n') {
    *error = "the image is not an emulator code object (compile the kernel with rocshmem-emu-hipcc)";
    return false;
  }
  const unsigned char* end_line = nullptr;
  for (size_t i = magic_length; i < kMaxHeader; ++i) {
    if (data[i] == '\n' && memcmp(data + i + 1, "end\n", 4) == 0) {
      end_line = data + i + 5;
      break;
    }
  }
  if (end_line == nullptr || memcmp(end_line, ELFMAG, SELFMAG) != 0 ||
      end_line[EI_CLASS] != ELFCLASS64) {
    *error = "the image's header has no 'end' line followed by a 64-bit ELF object";
    return false;
  }
  Elf64_Ehdr header;
  memcpy(&header, end_line, sizeof header);
  *size = (end_line - data) + header.e_shoff + size_t(header.e_shnum) * header.e_shentsize;
  return true;
}

}  // namespace hip_emu
