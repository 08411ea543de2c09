// The FCL runner of the mesh-vs-mesh benchmark (bench/README.md, "Runner protocol"): reads a
// scenarios.json and its binary STL meshes, builds FCL BVHModel<OBBRSS> or BVHModel<OBB> trees of
// both meshes, runs FCL's mesh-mesh collision query on every pose and prints one JSON line per
// (scenario, variant) with the fields the TypeScript runners print.
//
// Built by bench/native/build.mjs (`npm run bench:native`) against Debian's libfcl-dev:
//   g++ -O2 -std=c++17 $(pkg-config --cflags fcl) fcl_runner.cpp $(pkg-config --libs fcl)
//
// Counting follows the protocol: 'all' asks FCL for every contact (num_max_contacts unbounded,
// enable_contact false) and counts the (triangle of A, triangle of B) pairs FCL reports; FCL tests
// each leaf pair once, so the pairs are distinct. 'any' asks for one contact and counts the pose as
// 1 when FCL reports a collision. Triangle indices are positions in the STL file: the triangles are
// handed to FCL in file order, and FCL's contacts name them by that order.

#include <fcl/config.h>
#include <fcl/geometry/bvh/BVH_model.h>
#include <fcl/math/bv/OBB.h>
#include <fcl/math/bv/OBBRSS.h>
#include <fcl/narrowphase/collision.h>
#include <fcl/narrowphase/detail/traversal/collision/mesh_collision_traversal_node.h>
#include <fcl/narrowphase/detail/traversal/collision_node.h>

#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace {

// ---------------------------------------------------------------------------------------------
// Errors: usage errors exit 2 like `npm run bench`'s; so do input errors.
// ---------------------------------------------------------------------------------------------

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// ---------------------------------------------------------------------------------------------
// A small JSON reader: enough for scenarios.json (objects, arrays, strings, numbers, literals).
// Numbers go through strtod, which rounds correctly, so the poses are the float64 values written.
// ---------------------------------------------------------------------------------------------

struct Json {
  enum Type { Null, Bool, Number, String, Array, Object } type = Null;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<Json> array;
  std::vector<std::pair<std::string, Json>> object;

  const Json* get(const std::string& key) const {
    if (type != Object) return nullptr;
    for (const auto& kv : object)
      if (kv.first == key) return &kv.second;
    return nullptr;
  }
};

class JsonParser {
 public:
  JsonParser(const std::string& text, std::string name) : s_(text), name_(std::move(name)) {}

  Json parse() {
    Json v = value();
    ws();
    if (i_ != s_.size()) fail("trailing characters");
    return v;
  }

 private:
  const std::string& s_;
  std::string name_;
  std::size_t i_ = 0;

  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(name_ + ": cannot read scenarios (JSON: " + what + " at byte " + std::to_string(i_) + ")");
  }
  void ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\r' || s_[i_] == '\t')) i_++;
  }
  bool literal(const char* word) {
    std::size_t n = std::strlen(word);
    if (s_.compare(i_, n, word) != 0) return false;
    i_ += n;
    return true;
  }
  static void utf8(std::string& out, unsigned cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xc0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xe0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
      out += static_cast<char>(0x80 | (cp & 0x3f));
    } else {
      out += static_cast<char>(0xf0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
      out += static_cast<char>(0x80 | (cp & 0x3f));
    }
  }
  unsigned hex4() {
    if (i_ + 4 > s_.size()) fail("short \\u escape");
    unsigned v = 0;
    for (int k = 0; k < 4; k++) {
      char c = s_[i_++];
      v <<= 4;
      if (c >= '0' && c <= '9') v |= static_cast<unsigned>(c - '0');
      else if (c >= 'a' && c <= 'f') v |= static_cast<unsigned>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') v |= static_cast<unsigned>(c - 'A' + 10);
      else fail("bad \\u escape");
    }
    return v;
  }
  std::string str() {
    if (s_[i_] != '"') fail("expected a string");
    i_++;
    std::string out;
    for (;;) {
      if (i_ >= s_.size()) fail("unterminated string");
      char c = s_[i_++];
      if (c == '"') return out;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i_ >= s_.size()) fail("unterminated escape");
      char e = s_[i_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          unsigned cp = hex4();
          if (cp >= 0xd800 && cp < 0xdc00 && s_.compare(i_, 2, "\\u") == 0) {
            i_ += 2;
            unsigned lo = hex4();
            cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
          }
          utf8(out, cp);
          break;
        }
        default: fail("bad escape");
      }
    }
  }
  Json value() {
    ws();
    if (i_ >= s_.size()) fail("unexpected end");
    Json v;
    char c = s_[i_];
    if (c == '{') {
      v.type = Json::Object;
      i_++;
      ws();
      if (i_ < s_.size() && s_[i_] == '}') {
        i_++;
        return v;
      }
      for (;;) {
        ws();
        std::string key = str();
        ws();
        if (i_ >= s_.size() || s_[i_] != ':') fail("expected ':'");
        i_++;
        v.object.emplace_back(std::move(key), value());
        ws();
        if (i_ < s_.size() && s_[i_] == ',') {
          i_++;
          continue;
        }
        if (i_ < s_.size() && s_[i_] == '}') {
          i_++;
          return v;
        }
        fail("expected ',' or '}'");
      }
    }
    if (c == '[') {
      v.type = Json::Array;
      i_++;
      ws();
      if (i_ < s_.size() && s_[i_] == ']') {
        i_++;
        return v;
      }
      for (;;) {
        v.array.push_back(value());
        ws();
        if (i_ < s_.size() && s_[i_] == ',') {
          i_++;
          continue;
        }
        if (i_ < s_.size() && s_[i_] == ']') {
          i_++;
          return v;
        }
        fail("expected ',' or ']'");
      }
    }
    if (c == '"') {
      v.type = Json::String;
      v.string = str();
      return v;
    }
    if (literal("true")) {
      v.type = Json::Bool;
      v.boolean = true;
      return v;
    }
    if (literal("false")) {
      v.type = Json::Bool;
      return v;
    }
    if (literal("null")) return v;
    if (c == '-' || (c >= '0' && c <= '9')) {
      std::size_t start = i_;
      if (s_[i_] == '-') i_++;
      while (i_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[i_])) || s_[i_] == '.' || s_[i_] == 'e' ||
                                s_[i_] == 'E' || s_[i_] == '+' || s_[i_] == '-'))
        i_++;
      std::string text = s_.substr(start, i_ - start);
      char* end = nullptr;
      v.type = Json::Number;
      v.number = std::strtod(text.c_str(), &end);
      if (end != text.c_str() + text.size()) fail("bad number '" + text + "'");
      return v;
    }
    fail("unexpected character");
  }
};

std::string readFile(const std::string& file, const char* what) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(file + ": cannot read " + what);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// ---------------------------------------------------------------------------------------------
// Scenarios and meshes
// ---------------------------------------------------------------------------------------------

struct Scenario {
  std::string name;
  std::string meshA, meshB;
  bool any = false;
  std::vector<std::array<double, 16>> poses;
};

std::string dirOf(const std::string& file) {
  std::size_t slash = file.find_last_of('/');
  return slash == std::string::npos ? std::string(".") : file.substr(0, slash);
}

std::string resolve(const std::string& dir, const std::string& rel) {
  return !rel.empty() && rel[0] == '/' ? rel : dir + "/" + rel;
}

std::vector<Scenario> loadScenarios(const std::string& file) {
  std::string text = readFile(file, "scenarios");
  Json root = JsonParser(text, file).parse();
  const Json* list = root.get("scenarios");
  if (!list || list->type != Json::Array) throw InputError(file + ": no \"scenarios\" array");
  std::vector<Scenario> out;
  for (std::size_t i = 0; i < list->array.size(); i++) {
    const Json& s = list->array[i];
    const Json* name = s.get("name");
    const Json* a = s.get("meshA");
    const Json* b = s.get("meshB");
    const Json* query = s.get("query");
    const Json* poses = s.get("poses");
    if (!name || name->type != Json::String) throw InputError(file + ": scenario " + std::to_string(i) + " has no name");
    const std::string& n = name->string;
    if (!a || !b || a->type != Json::String || b->type != Json::String) throw InputError(file + ": " + n + ": meshA/meshB missing");
    if (!query || query->type != Json::String || (query->string != "all" && query->string != "any"))
      throw InputError(file + ": " + n + ": query must be \"all\" or \"any\"");
    if (!poses || poses->type != Json::Array) throw InputError(file + ": " + n + ": no poses");
    Scenario sc;
    sc.name = n;
    sc.meshA = a->string;
    sc.meshB = b->string;
    sc.any = query->string == "any";
    for (std::size_t k = 0; k < poses->array.size(); k++) {
      const Json& p = poses->array[k];
      if (p.type != Json::Array || p.array.size() != 16) throw InputError(file + ": " + n + ": pose " + std::to_string(k) + " is not 16 numbers");
      std::array<double, 16> m{};
      for (int j = 0; j < 16; j++) {
        if (p.array[j].type != Json::Number || !std::isfinite(p.array[j].number))
          throw InputError(file + ": " + n + ": pose " + std::to_string(k) + " is not 16 finite numbers");
        m[j] = p.array[j].number;
      }
      sc.poses.push_back(m);
    }
    out.push_back(std::move(sc));
  }
  return out;
}

struct Mesh {
  std::vector<fcl::Vector3d> vertices;
  std::vector<fcl::Triangle> triangles;
};

struct BitsKey {
  uint32_t x, y, z;
  bool operator==(const BitsKey& o) const { return x == o.x && y == o.y && z == o.z; }
};
struct BitsHash {
  std::size_t operator()(const BitsKey& k) const {
    uint64_t h = k.x * 0x9e3779b97f4a7c15ULL;
    h ^= (k.y + 0x7f4a7c15ULL) * 0xc2b2ae3d27d4eb4fULL;
    h ^= (k.z + 0x165667b1ULL) * 0x165667b19e3779f9ULL;
    h ^= h >> 29;
    return static_cast<std::size_t>(h);
  }
};

uint32_t le32(const unsigned char* p) {
  return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 | static_cast<uint32_t>(p[2]) << 16 |
         static_cast<uint32_t>(p[3]) << 24;
}

/**
 * Binary STL, as bench/scenarios.ts reads it: vertices whose float32 coordinates are exactly equal
 * (−0 folded onto +0) are welded, numbered in order of first appearance; triangle i is the file's
 * triangle i with its corners in file order.
 */
Mesh readStl(const std::string& file) {
  std::string data = readFile(file, "mesh");
  if (data.size() < 84) throw InputError(file + ": too short for a binary STL (" + std::to_string(data.size()) + " bytes)");
  const auto* bytes = reinterpret_cast<const unsigned char*>(data.data());
  uint32_t n = le32(bytes + 80);
  uint64_t expected = 84 + 50ULL * n;
  if (data.size() != expected)
    throw InputError(file + ": not a binary STL: " + std::to_string(data.size()) + " bytes, but " + std::to_string(n) +
                     " triangles need " + std::to_string(expected));
  Mesh m;
  m.triangles.reserve(n);
  m.vertices.reserve(n / 2 + 3);
  std::unordered_map<BitsKey, int, BitsHash> index;
  index.reserve(static_cast<std::size_t>(n) * 2);
  for (uint32_t t = 0; t < n; t++) {
    int corner[3];
    for (int k = 0; k < 3; k++) {
      const unsigned char* p = bytes + 84 + 50ULL * t + 12 + 12 * k;
      uint32_t b[3];
      float f[3];
      for (int c = 0; c < 3; c++) {
        b[c] = le32(p + 4 * c);
        std::memcpy(&f[c], &b[c], 4);
        if (!std::isfinite(f[c])) throw InputError(file + ": triangle " + std::to_string(t) + " has a non-finite coordinate");
        if (f[c] == 0.0f) {
          b[c] = 0;
          f[c] = 0.0f;
        }
      }
      auto it = index.emplace(BitsKey{b[0], b[1], b[2]}, static_cast<int>(m.vertices.size()));
      if (it.second) m.vertices.emplace_back(f[0], f[1], f[2]);
      corner[k] = it.first->second;
    }
    m.triangles.emplace_back(corner[0], corner[1], corner[2]);
  }
  return m;
}

// ---------------------------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------------------------

const char* const HELP =
    "Usage: fcl_runner --scenarios PATH [options]\n"
    "\n"
    "The FCL runner of the mesh-vs-mesh benchmark (bench/README.md). For every selected scenario and\n"
    "variant it builds FCL BVHModel trees of both meshes and runs FCL's collision query on every pose,\n"
    "printing one JSON object per line. `npm run bench` runs it once per (variant, scenario).\n"
    "\n"
    "Options:\n"
    "  --scenarios PATH   scenarios.json to read (meshes resolve relative to its folder); required\n"
    "  --scenario NAME    run only this scenario (repeatable; default: all)\n"
    "  --variant V        obbrss or obb (repeatable; default: both)\n"
    "  --reps N           rebuild both trees and rerun every pose N times; medians (default 3)\n"
    "  --warmup N         untimed rounds first: a build and up to 8 evenly spaced poses (default 1)\n"
    "  --pose-stride S    run only poses 0, S, 2S, ...\n"
    "  --dump-pairs FILE --pose K\n"
    "                     instead of timing, write the sorted \"iA iB\" pairs of pose K of the one\n"
    "                     selected scenario to FILE (one variant)\n"
    "  --version          print the FCL version and exit\n"
    "  --help             this text\n";

struct Options {
  std::string scenarios;
  std::vector<std::string> scenarioNames;
  std::vector<std::string> variants;
  int reps = 3;
  int warmup = 1;
  int poseStride = 1;
  std::string dumpPairs;
  long pose = -1;
  bool help = false;
  bool version = false;
};

int intArg(const std::string& flag, const std::string& text, int min) {
  bool digits = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (!digits || text.size() > 9 || std::stoi(text) < min)
    throw UsageError(flag + " needs an integer >= " + std::to_string(min) + ", got '" + text + "'");
  return std::stoi(text);
}

Options parseOptions(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    std::string value;
    bool hasValue = false;
    std::size_t eq = a.find('=');
    if (a.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = a.substr(eq + 1);
      a = a.substr(0, eq);
      hasValue = true;
    }
    auto next = [&]() -> std::string {
      if (hasValue) return value;
      if (i + 1 >= argc) throw UsageError(a + " needs a value");
      return argv[++i];
    };
    if (a == "--help" || a == "-h") o.help = true;
    else if (a == "--version") o.version = true;
    else if (a == "--scenarios") o.scenarios = next();
    else if (a == "--scenario") o.scenarioNames.push_back(next());
    else if (a == "--variant") {
      std::string v = next();
      if (v != "obbrss" && v != "obb") throw UsageError("unknown variant '" + v + "'; variants: obbrss, obb");
      if (std::find(o.variants.begin(), o.variants.end(), v) == o.variants.end()) o.variants.push_back(v);
    } else if (a == "--reps") o.reps = intArg(a, next(), 1);
    else if (a == "--warmup") o.warmup = intArg(a, next(), 0);
    else if (a == "--pose-stride") o.poseStride = intArg(a, next(), 1);
    else if (a == "--dump-pairs") o.dumpPairs = next();
    else if (a == "--pose") o.pose = intArg(a, next(), 0);
    else throw UsageError("unknown option '" + a + "'");
    if (hasValue && (a == "--help" || a == "-h" || a == "--version")) throw UsageError(a + " takes no value");
  }
  if (o.help || o.version) return o;
  if (o.scenarios.empty()) throw UsageError("--scenarios PATH is required");
  if (o.dumpPairs.empty() != (o.pose < 0)) throw UsageError("--dump-pairs FILE and --pose K go together");
  if (o.variants.empty()) o.variants = {"obbrss", "obb"};
  if (!o.dumpPairs.empty() && o.variants.size() != 1) throw UsageError("--dump-pairs needs exactly one --variant");
  return o;
}

// ---------------------------------------------------------------------------------------------
// FCL
// ---------------------------------------------------------------------------------------------

template <typename BV>
std::shared_ptr<fcl::BVHModel<BV>> buildModel(const Mesh& m) {
  auto model = std::make_shared<fcl::BVHModel<BV>>();
  model->beginModel(static_cast<int>(m.triangles.size()), static_cast<int>(m.vertices.size()));
  model->addSubModel(m.vertices, m.triangles);
  model->endModel();
  return model;
}

fcl::Transform3d toTransform(const std::array<double, 16>& p) {
  fcl::Transform3d tf = fcl::Transform3d::Identity();
  fcl::Matrix3d r;
  r << p[0], p[1], p[2], p[4], p[5], p[6], p[8], p[9], p[10];
  tf.linear() = r;
  tf.translation() = fcl::Vector3d(p[3], p[7], p[11]);
  return tf;
}

fcl::CollisionRequestd request(bool any) {
  // 'all': every contact; 'any': stop at the first. Contact points and depths are not computed.
  return fcl::CollisionRequestd(any ? 1 : std::numeric_limits<std::size_t>::max(), false);
}

/** The public query, as an FCL user calls it: the contact count ('all') or 0/1 ('any'). */
template <typename BV>
std::size_t query(const fcl::BVHModel<BV>& a, const fcl::BVHModel<BV>& b, const fcl::Transform3d& tf, bool any) {
  fcl::CollisionResultd result;
  fcl::collide(&a, fcl::Transform3d::Identity(), &b, tf, request(any), result);
  if (any) return result.isCollision() ? 1 : 0;
  return result.numContacts();
}

/** The pairs of one pose, as (triangle of A, triangle of B). */
template <typename BV>
std::vector<std::pair<int, int>> pairs(const fcl::BVHModel<BV>& a, const fcl::BVHModel<BV>& b, const fcl::Transform3d& tf) {
  fcl::CollisionResultd result;
  fcl::collide(&a, fcl::Transform3d::Identity(), &b, tf, request(false), result);
  std::vector<std::pair<int, int>> out;
  for (std::size_t i = 0; i < result.numContacts(); i++) {
    const auto& c = result.getContact(i);
    out.emplace_back(c.b1, c.b2);
  }
  return out;
}

template <typename BV>
struct Node;
template <>
struct Node<fcl::OBBRSSd> {
  using type = fcl::detail::MeshCollisionTraversalNodeOBBRSS<double>;
};
template <>
struct Node<fcl::OBBd> {
  using type = fcl::detail::MeshCollisionTraversalNodeOBB<double>;
};

struct Stats {
  std::size_t count;
  int64_t boxTests;
  int64_t triTests;
};

/**
 * The same query through the traversal node fcl::collide builds for these trees
 * (detail::orientedMeshCollide), with FCL's statistics switched on: bounding-volume tests and leaf
 * (triangle-triangle) tests. Untimed.
 */
template <typename BV>
Stats statsQuery(const fcl::BVHModel<BV>& a, const fcl::BVHModel<BV>& b, const fcl::Transform3d& tf, bool any) {
  fcl::CollisionResultd result;
  fcl::CollisionRequestd req = request(any);
  typename Node<BV>::type node;
  fcl::detail::initialize(node, a, fcl::Transform3d::Identity(), b, tf, req, result);
  node.enable_statistics = true;
  fcl::detail::collide(&node);
  std::size_t count = any ? (result.isCollision() ? 1 : 0) : result.numContacts();
  return {count, node.num_bv_tests, node.num_leaf_tests};
}

template <typename BV>
std::size_t modelBytes(const fcl::BVHModel<BV>& m) {
  return static_cast<std::size_t>(m.getNumBVs()) * sizeof(fcl::BVNode<BV>) +
         static_cast<std::size_t>(m.num_vertices) * sizeof(fcl::Vector3d) +
         static_cast<std::size_t>(m.num_tris) * (sizeof(fcl::Triangle) + sizeof(unsigned int));
}

template <typename BV>
std::string modelNote() {
  return "both models: " + std::to_string(sizeof(fcl::BVNode<BV>)) + " B per BVNode (2n-1 nodes), " +
         std::to_string(sizeof(fcl::Vector3d)) + " B per welded float64 vertex, " + std::to_string(sizeof(fcl::Triangle)) +
         " B per Triangle (3 size_t) and 4 B per primitive index; allocator and object overhead not counted";
}

// ---------------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------------

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/** A number as JSON, rounded to `digits` decimals and without trailing zeros. */
std::string num(double v, int digits) {
  if (!std::isfinite(v)) return "null";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  std::string s = buf;
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  if (s == "-0") s = "0";
  return s;
}

std::string jsonString(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

template <typename T, typename F>
std::string list(const std::vector<T>& v, F f) {
  std::string out = "[";
  for (std::size_t i = 0; i < v.size(); i++) {
    if (i) out += ',';
    out += f(v[i]);
  }
  return out + "]";
}

/** The README's per-pose fingerprint: FNV-1a 32-bit of the counts joined by ','. */
std::string perPoseHash(const std::vector<std::size_t>& counts) {
  std::string text;
  for (std::size_t i = 0; i < counts.size(); i++) {
    if (i) text += ',';
    text += std::to_string(counts[i]);
  }
  uint32_t h = 0x811c9dc5u;
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x01000193u;
  }
  char buf[9];
  std::snprintf(buf, sizeof buf, "%08x", h);
  return buf;
}

double peakRssMb() {
  struct rusage u {};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

std::string version() { return std::string(FCL_VERSION) + " (g++ " + __VERSION__ + ")"; }

double msSince(std::chrono::steady_clock::time_point t0, std::chrono::steady_clock::time_point t1) {
  return std::chrono::duration<double, std::milli>(t1 - t0).count();
}

template <typename BV>
std::string run(const std::string& variant, const Scenario& s, const Mesh& a, const Mesh& b, const std::vector<std::size_t>& poseIdx,
                int reps, int warmup) {
  using clock = std::chrono::steady_clock;
  std::vector<fcl::Transform3d, Eigen::aligned_allocator<fcl::Transform3d>> tfs;
  for (std::size_t k : poseIdx) tfs.push_back(toTransform(s.poses[k]));
  const std::size_t n = tfs.size();

  // Untimed warm-up, like the TypeScript runners': a build and a few evenly spaced poses.
  std::size_t warmStep = std::max<std::size_t>(1, (n + 7) / 8);
  for (int w = 0; w < warmup; w++) {
    auto ma = buildModel<BV>(a);
    auto mb = buildModel<BV>(b);
    for (std::size_t j = 0; j < n; j += warmStep) query(*ma, *mb, tfs[j], s.any);
  }

  std::vector<double> buildAll, queryAll, fastestPerPose;
  std::vector<std::size_t> counts;
  bool consistent = true;
  int64_t boxTests = 0, triTests = 0;
  std::size_t bytes = 0;
  for (int rep = 0; rep < reps; rep++) {
    auto b0 = clock::now();
    auto ma = buildModel<BV>(a);
    auto mb = buildModel<BV>(b);
    auto b1 = clock::now();

    std::vector<std::size_t> repCounts(n);
    std::vector<double> perPose(n);
    auto q0 = clock::now();
    auto prev = q0;
    for (std::size_t j = 0; j < n; j++) {
      repCounts[j] = query(*ma, *mb, tfs[j], s.any);
      auto now = clock::now();
      perPose[j] = msSince(prev, now);
      prev = now;
    }
    double queryMs = msSince(q0, prev);
    buildAll.push_back(msSince(b0, b1));
    queryAll.push_back(queryMs);
    if (rep == 0) {
      counts = repCounts;
    } else if (repCounts != counts) {
      consistent = false;
      std::fprintf(stderr, "warning: fcl/%s on %s: rep %d gave different per-pose counts than rep 0\n", variant.c_str(), s.name.c_str(), rep);
    }
    if (queryMs <= *std::min_element(queryAll.begin(), queryAll.end())) fastestPerPose = perPose;
    if (rep == reps - 1) {
      bytes = modelBytes(*ma) + modelBytes(*mb);
      // One more, untimed pass with FCL's counters on.
      for (std::size_t j = 0; j < n; j++) {
        Stats st = statsQuery(*ma, *mb, tfs[j], s.any);
        boxTests += st.boxTests;
        triTests += st.triTests;
        if (st.count != counts[j]) {
          consistent = false;
          std::fprintf(stderr, "warning: fcl/%s on %s: the counting pass gave %zu at pose %zu, the timed pass %zu\n", variant.c_str(),
                       s.name.c_str(), st.count, poseIdx[j], counts[j]);
        }
      }
    }
  }

  std::size_t contacts = 0;
  for (std::size_t c : counts) contacts += c;
  const std::size_t tris = a.triangles.size() + b.triangles.size();
  auto ms3 = [](double v) { return num(v, 3); };
  auto ms4 = [](double v) { return num(v, 4); };
  auto integer = [](std::size_t v) { return std::to_string(v); };
  std::ostringstream o;
  o << "{\"impl\":\"fcl\",\"variant\":" << jsonString(variant) << ",\"version\":" << jsonString(version())
    << ",\"scenario\":" << jsonString(s.name) << ",\"query\":\"" << (s.any ? "any" : "all") << "\""
    << ",\"triangles\":[" << a.triangles.size() << "," << b.triangles.size() << "]"
    << ",\"poses\":" << n << ",\"reps\":" << reps << ",\"build_ms\":" << num(median(buildAll), 3)
    << ",\"query_ms\":" << num(median(queryAll), 3) << ",\"build_ms_all\":" << list(buildAll, ms3)
    << ",\"query_ms_all\":" << list(queryAll, ms3) << ",\"contacts\":" << contacts << ",\"per_pose\":" << list(counts, integer)
    << ",\"per_pose_hash\":\"" << perPoseHash(counts) << "\",\"per_pose_ms\":" << list(fastestPerPose, ms4)
    << ",\"peak_rss_mb\":" << num(peakRssMb(), 1) << ",\"model_bytes\":" << bytes
    << ",\"model_bytes_per_tri\":" << num(static_cast<double>(bytes) / static_cast<double>(tris), 1)
    << ",\"model_bytes_note\":" << jsonString(modelNote<BV>()) << ",\"box_tests\":" << boxTests << ",\"tri_tests\":" << triTests
    << ",\"exact_contacts_ok\":null,\"reps_consistent\":" << (consistent ? "true" : "false") << "}";
  return o.str();
}

template <typename BV>
std::size_t dump(const std::string& file, const Scenario& s, const Mesh& a, const Mesh& b, std::size_t pose) {
  auto ma = buildModel<BV>(a);
  auto mb = buildModel<BV>(b);
  auto ps = pairs(*ma, *mb, toTransform(s.poses[pose]));
  std::sort(ps.begin(), ps.end());
  std::ofstream out(file);
  if (!out) throw InputError(file + ": cannot write");
  for (const auto& p : ps) out << p.first << ' ' << p.second << '\n';
  return ps.size();
}

int mainImpl(int argc, char** argv) {
  Options o = parseOptions(argc, argv);
  if (o.help) {
    std::fputs(HELP, stdout);
    return 0;
  }
  if (o.version) {
    std::printf("fcl %s\n", version().c_str());
    return 0;
  }
  std::vector<Scenario> all = loadScenarios(o.scenarios);
  std::vector<const Scenario*> selected;
  for (const auto& name : o.scenarioNames) {
    if (std::none_of(all.begin(), all.end(), [&](const Scenario& s) { return s.name == name; })) {
      std::string names;
      for (const auto& s : all) names += (names.empty() ? "" : ", ") + s.name;
      throw UsageError("unknown scenario '" + name + "'; available: " + names);
    }
  }
  for (const auto& s : all)
    if (o.scenarioNames.empty() || std::find(o.scenarioNames.begin(), o.scenarioNames.end(), s.name) != o.scenarioNames.end())
      selected.push_back(&s);
  if (!o.dumpPairs.empty() && selected.size() != 1) throw UsageError("--dump-pairs needs exactly one --scenario");

  const std::string dir = dirOf(o.scenarios);
  for (const Scenario* s : selected) {
    auto t0 = std::chrono::steady_clock::now();
    Mesh a = readStl(resolve(dir, s->meshA));
    Mesh b = s->meshB == s->meshA ? a : readStl(resolve(dir, s->meshB));
    std::fprintf(stderr, "%s: %zu × %zu triangles parsed in %.0f ms\n", s->name.c_str(), a.triangles.size(), b.triangles.size(),
                 msSince(t0, std::chrono::steady_clock::now()));
    if (!o.dumpPairs.empty()) {
      if (static_cast<std::size_t>(o.pose) >= s->poses.size())
        throw UsageError("--pose " + std::to_string(o.pose) + ": " + s->name + " has poses 0..." + std::to_string(s->poses.size() - 1));
      std::size_t k = static_cast<std::size_t>(o.pose);
      std::size_t count = o.variants[0] == "obbrss" ? dump<fcl::OBBRSSd>(o.dumpPairs, *s, a, b, k) : dump<fcl::OBBd>(o.dumpPairs, *s, a, b, k);
      std::fprintf(stderr, "fcl/%s on %s pose %zu: %zu pairs -> %s\n", o.variants[0].c_str(), s->name.c_str(), k, count, o.dumpPairs.c_str());
      return 0;
    }
    std::vector<std::size_t> poseIdx;
    for (std::size_t k = 0; k < s->poses.size(); k += static_cast<std::size_t>(o.poseStride)) poseIdx.push_back(k);
    for (const auto& v : o.variants) {
      std::string line = v == "obbrss" ? run<fcl::OBBRSSd>(v, *s, a, b, poseIdx, o.reps, o.warmup)
                                       : run<fcl::OBBd>(v, *s, a, b, poseIdx, o.reps, o.warmup);
      std::printf("%s\n", line.c_str());
      std::fflush(stdout);
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return mainImpl(argc, argv);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "fcl_runner: %s (see --help)\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fcl_runner: %s\n", e.what());
    return 2;
  }
}
