#include "hilsim/firmware/images.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>

#include "hilsim/errors.h"
#include "hilsim/iss/core_model.h"

namespace hilsim::firmware {

const std::vector<std::string>& presets() {
  static const std::vector<std::string> names = iss::corePresetNames();
  return names;
}

std::string imageDir() {
  const char* override_dir = std::getenv("HILSIM_FIRMWARE_DIR");
  if (override_dir && *override_dir) return override_dir;
  return HILSIM_FIRMWARE_DIR;
}

std::string imagePath(const std::string& preset, ImageLibrary library, const std::string& opt) {
  const iss::CoreInfo* info = iss::presetInfo(preset);
  if (!info) {
    std::string list;
    for (const std::string& name : iss::issPresetNames()) list += (list.empty() ? "" : ", ") + name;
    throw ConfigError("no firmware image for CPU preset '" + preset +
                      "' (presets with one: " + list + ")");
  }
  if (opt != "O2" && opt != "Os")
    throw ConfigError("no firmware image built at -" + opt + " (images: -O2, -Os)");
  if (library == ImageLibrary::kOptimized && opt != "O2")
    throw ConfigError("the optimized kernels' firmware image is built at -O2 only "
                      "(cpu.kernels: optimized needs cpu.firmware_opt: O2)");
  // A board preset runs its core's image.
  const std::string path = imageDir() + "/" + iss::coreInfo(info->core).preset +
                           (library == ImageLibrary::kOptimized ? "-optimized" : "") +
                           (opt == "O2" ? "" : "-" + opt) + ".elf";
  if (!std::ifstream(path))
    throw InputError("firmware image " + path +
                     " not found: the build makes it (unless configured with "
                     "-DHILSIM_FIRMWARE=OFF); $HILSIM_FIRMWARE_DIR overrides the directory");
  return path;
}

}  // namespace hilsim::firmware
