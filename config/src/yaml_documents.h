#pragma once
// Where the documents of a YAML stream start, found without YAML::LoadAll: on some malformed
// streams (e.g. "&a,") yaml-cpp 0.7's parser reports document after document without consuming
// input, and LoadAll then allocates until the process runs out of memory.

#include <yaml-cpp/mark.h>

#include <string>
#include <vector>

namespace hilsim::config::detail {

struct DocumentScan {
  std::vector<YAML::Mark> starts;  // at most `limit` document starts
  bool stuck = false;              // the parser stopped consuming input at starts.back()
};

// Throws YAML::Exception for a syntax error.
DocumentScan scanDocuments(const std::string& text, size_t limit);

}  // namespace hilsim::config::detail
