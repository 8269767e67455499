{
  "targets": [
    {
      "target_name": "literal_scan",
      "sources": ["literal_scan.cc"],
      "cflags_cc": ["-O3", "-std=c++17", "-fexceptions"],
      "cflags_cc!": ["-fno-exceptions"],
      "xcode_settings": { "GCC_ENABLE_CPP_EXCEPTIONS": "YES", "CLANG_CXX_LANGUAGE_STANDARD": "c++17" }
    }
  ]
}
