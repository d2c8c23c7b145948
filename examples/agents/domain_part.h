/* The domain part of an agents file such as village.toml (C99, header only): the tables that only
 * `topoplan agents` reads ([agents], [[goal]], [[event]]) are blanked, each of their lines kept as
 * an empty line so that the parser's errors keep their line numbers. */
#ifndef TOPOPLAN_EXAMPLES_AGENTS_DOMAIN_PART_H_
#define TOPOPLAN_EXAMPLES_AGENTS_DOMAIN_PART_H_

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The text, NUL-terminated after *size bytes (the caller frees it); NULL when the file cannot be
 * read or the memory runs out. */
static char* agents_domain_part(const char* path, size_t* size) {
  FILE* f = fopen(path, "rb");
  char line[4096];
  char* text;
  size_t used = 0, cap = 1 << 16;
  int skip = 0;
  if (f == NULL) return NULL;
  text = (char*)malloc(cap);
  while (text != NULL && fgets(line, sizeof line, f) != NULL) {
    const size_t n = strlen(line);
    if (line[0] == '[')
      skip = strncmp(line, "[agents]", 8) == 0 || strncmp(line, "[[goal]]", 8) == 0 ||
             strncmp(line, "[[event]]", 9) == 0;
    if (used + n + 2 > cap) {
      char* grown = (char*)realloc(text, cap *= 2);
      if (grown == NULL) free(text);
      text = grown;
      if (text == NULL) break;
    }
    if (skip) {
      text[used++] = '\n';
    } else {
      memcpy(text + used, line, n);
      used += n;
    }
  }
  fclose(f);
  if (text == NULL) return NULL;
  text[used] = '\0';
  *size = used;
  return text;
}

#endif
