#include "unique_id.hpp"

#include <cerrno>
#include <cstring>

#include "random_bytes.hpp"

namespace rccl_emu {
namespace {

constexpr char kMagic[8] = {'R', 'C', 'C', 'L', 'E', 'M', 'U', '1'};

struct Layout {
  char magic[8];
  IdContent content;
};
static_assert(sizeof(Layout) <= NCCL_UNIQUE_ID_BYTES, "the id must fit ncclUniqueId");

using emu_common::random_bytes;

// SplitMix64 finaliser: a good 64-bit mixer, enough to keep derived names apart.
uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

ncclUniqueId to_id(const IdContent& content) {
  ncclUniqueId id;
  std::memset(&id, 0, sizeof id);
  Layout layout;
  std::memcpy(layout.magic, kMagic, sizeof kMagic);
  layout.content = content;
  std::memcpy(id.internal, &layout, sizeof layout);
  return id;
}

}  // namespace

bool create_unique_id(ncclUniqueId* id) {
  IdContent content;
  if (!random_bytes(&content, sizeof content)) return false;
  *id = to_id(content);
  return true;
}

bool parse_unique_id(const ncclUniqueId& id, IdContent* out) {
  Layout layout;
  std::memcpy(&layout, id.internal, sizeof layout);
  if (std::memcmp(layout.magic, kMagic, sizeof kMagic) != 0) return false;
  *out = layout.content;
  return true;
}

ncclUniqueId derive_unique_id(const IdContent& parent, uint64_t sequence, int64_t color) {
  uint64_t words[2];
  std::memcpy(words, parent.name_space, sizeof words);
  uint64_t a = mix(words[0] ^ mix(sequence));
  uint64_t b = mix(words[1] ^ mix(static_cast<uint64_t>(color) + 0x632be59bd9b4e019ULL) ^ a);
  IdContent derived = parent;  // the secret is inherited
  uint64_t out[2] = {a, b};
  std::memcpy(derived.name_space, out, sizeof out);
  return to_id(derived);
}

std::string segment_name(const IdContent& id) {
  static const char digits[] = "0123456789abcdef";
  std::string name = "/rccl-emu-";
  for (uint8_t byte : id.name_space) {
    name += digits[byte >> 4];
    name += digits[byte & 15];
  }
  return name;
}

}  // namespace rccl_emu
