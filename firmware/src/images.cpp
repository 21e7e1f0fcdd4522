#include "hilsim/firmware/images.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>

#include "hilsim/errors.h"
#include "hilsim/iss/core_model.h"

namespace hilsim::firmware {

const std::vector<std::string>& presets() {
  static const std::vector<std::string> names = iss::issPresetNames();
  return names;
}

std::string imageDir() {
  const char* override_dir = std::getenv("HILSIM_FIRMWARE_DIR");
  if (override_dir && *override_dir) return override_dir;
  return HILSIM_FIRMWARE_DIR;
}

std::string imagePath(const std::string& preset, ImageLibrary library) {
  const std::vector<std::string>& known = presets();
  if (std::find(known.begin(), known.end(), preset) == known.end()) {
    std::string list;
    for (const std::string& name : known) list += (list.empty() ? "" : ", ") + name;
    throw ConfigError("no firmware image for CPU preset '" + preset + "' (images: " + list + ")");
  }
  const std::string path = imageDir() + "/" + preset +
                           (library == ImageLibrary::kOptimized ? "-optimized" : "") + ".elf";
  if (!std::ifstream(path))
    throw InputError("firmware image " + path +
                     " not found: the build makes it (unless configured with "
                     "-DHILSIM_FIRMWARE=OFF); $HILSIM_FIRMWARE_DIR overrides the directory");
  return path;
}

}  // namespace hilsim::firmware
