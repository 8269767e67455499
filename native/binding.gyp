{
  "targets": [
    {
      "target_name": "rlmkit_native",
      "sources": ["rlmkit_native.cc", "literal_finder.cc", "literal_scan.cc", "scan_args.cc", "scan_files.cc", "span_names.cc", "stat_files.cc"],
      "cflags": ["-Wall", "-Wextra", "-fvisibility=hidden"],
      "cflags_cc": ["-O3", "-std=c++17", "-fexceptions"],
      "cflags_cc!": ["-fno-exceptions"],
      "xcode_settings": { "GCC_ENABLE_CPP_EXCEPTIONS": "YES", "CLANG_CXX_LANGUAGE_STANDARD": "c++17" }
    }
  ]
}
