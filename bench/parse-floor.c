/*
 * tree-sitter's C parser alone, for bench/parse-floor.ts: reads the paths listed in argv[1] (one a line),
 * parses each file whole with the Python grammar and deletes the tree, and prints what it took as JSON
 * ({"ms":…,"files":…,"bytes":…}), reading included. Built by bench/parse-floor.ts with the tree-sitter
 * runtime and grammar sources of their npm packages.
 */
#include <tree_sitter/api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const TSLanguage *tree_sitter_python(void);

static double seconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return now.tv_sec + now.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: parse-floor LIST\n");
    return 2;
  }
  FILE *list = fopen(argv[1], "r");
  if (!list) {
    perror(argv[1]);
    return 1;
  }
  TSParser *parser = ts_parser_new();
  if (!ts_parser_set_language(parser, tree_sitter_python())) {
    fprintf(stderr, "the grammar's ABI does not match the runtime's\n");
    return 1;
  }
  static char path[65536];
  long files = 0;
  long long bytes = 0;
  double started = seconds();
  while (fgets(path, sizeof path, list)) {
    path[strcspn(path, "\n")] = 0;
    FILE *file = fopen(path, "rb");
    if (!file) continue;
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    char *text = malloc(size > 0 ? size : 1);
    size_t read = fread(text, 1, size, file);
    fclose(file);
    TSTree *tree = ts_parser_parse_string(parser, NULL, text, (uint32_t)read);
    ts_tree_delete(tree);
    free(text);
    files++;
    bytes += (long long)read;
  }
  printf("{\"ms\":%.1f,\"files\":%ld,\"bytes\":%lld}\n", (seconds() - started) * 1000, files, bytes);
  ts_parser_delete(parser);
  fclose(list);
  return 0;
}
