#include "yaml_documents.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>

#include <sstream>

namespace hilsim::config::detail {
namespace {

// Records where a document starts and ignores its content.
class DocumentStart final : public YAML::EventHandler {
 public:
  YAML::Mark mark;
  void OnDocumentStart(const YAML::Mark& m) override { mark = m; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

}  // namespace

DocumentScan scanDocuments(const std::string& text, size_t limit) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  DocumentScan scan;
  DocumentStart handler;
  while (scan.starts.size() < limit && parser.HandleNextDocument(handler)) {
    if (!scan.starts.empty() && handler.mark.pos == scan.starts.back().pos) {
      scan.stuck = true;
      break;
    }
    scan.starts.push_back(handler.mark);
  }
  return scan;
}

}  // namespace hilsim::config::detail
