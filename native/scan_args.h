// What a scan is given besides its paths and needles (see scan_args.cc).
#ifndef RLMKIT_SCAN_ARGS_H_
#define RLMKIT_SCAN_ARGS_H_

#include <node_api.h>

#include "scan_job.h"

// Takes `spans` ({ fd, at: Float64Array, length: Int32Array }, one place per path) into the job, with a
// descriptor of its own: the caller may close its file while the scan runs. False when it is malformed.
bool ReadSpans(napi_env env, napi_value spans, Job& job);

// Takes `read` (a Uint8Array, one value per path: 1 to read, 0 only to state) into the job. False when it is malformed.
bool ReadMask(napi_env env, napi_value value, Job& job);

bool ReadIdentity(napi_env env, napi_value value, Job& job);

#endif  // RLMKIT_SCAN_ARGS_H_
