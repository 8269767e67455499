// What a scan is given besides its paths (see scan_args.cc).
#ifndef RLMKIT_SCAN_ARGS_H_
#define RLMKIT_SCAN_ARGS_H_

#include <node_api.h>

#include "scan_job.h"

// Takes the needle, `also` (other needles a kept line must hold) and `anyOf` (groups of needles a kept line must hold
// one of each), the last two nullptr when not given, into the job as finders, lower-cased when the job ignores case
// (set before). nullptr when they are well formed, else the message of the TypeError to throw.
const char* ReadNeedles(napi_env env, napi_value needle, napi_value also, napi_value any_of, Job& job);

// Takes `spans` ({ fd, at: Float64Array, length: Int32Array }, one place per path) into the job, with a
// descriptor of its own: the caller may close its file while the scan runs. False when it is malformed.
bool ReadSpans(napi_env env, napi_value spans, Job& job);

// Takes `read` (a Uint8Array, one value per path: 1 to read, 0 only to state) into the job. False when it is malformed.
bool ReadMask(napi_env env, napi_value value, Job& job);

// Takes `identity` (a Float64Array, a device and an inode number per path) into the job. False when it is malformed.
bool ReadIdentity(napi_env env, napi_value value, Job& job);

// Takes `grams` ({ data: Uint8Array } or { fd, bytes }, with { at: Float64Array, length: Int32Array, trigrams:
// Uint32Array }, one place per path) into the job: the filters' bytes copied, or a descriptor of the job's own to read
// them from (see LoadGrams). False when it is malformed.
bool ReadGrams(napi_env env, napi_value grams, Job& job);

// Reads the filter file's bytes from the job's descriptor (when ReadGrams was given one), on a scan thread; the paths'
// filters are left unused (every path is read) when they cannot be read. The descriptor is closed.
void LoadGrams(Job& job) noexcept;

// Whether the file at `index` may hold every trigram of the job, as its filter says (src/nav/trigram-filter.ts's
// mayHoldAt): true when it has none, or one that is not a power of two bytes long or lies outside the filters' bytes.
bool MayHoldTrigrams(const Job& job, size_t index);

#endif  // RLMKIT_SCAN_ARGS_H_
