-- Load test for POST /v1/ingest with wrk (Debian: apt-get install wrk).
--
--   wrk -t2 -c16 -d15s -s scripts/wrk-ingest.lua http://127.0.0.1:8000/v1/ingest \
--       -- samples/erp-light-wh01.png hit [API_KEY]
--
-- "hit" sends the same bytes every time (after the first, cache hits); "miss" appends a
-- per-request suffix after the PNG's end, so every request is new bytes (a full analysis)
-- while the picture stays the same.

local boundary = "stockshot-wrk-boundary"
local counter = 0
local thread_id = 0
local image, mode, key

function setup(thread)
  thread_id = thread_id + 1
  thread:set("thread_id", thread_id)
end

function init(args)
  local path = args[1] or "samples/erp-light-wh01.png"
  local file = assert(io.open(path, "rb"))
  image = file:read("*all")
  file:close()
  mode = args[2] or "hit"
  key = args[3]
end

function request()
  counter = counter + 1
  local data = image
  if mode == "miss" then
    data = image .. string.format("stockshot-wrk-%d-%d-%d", thread_id, counter, os.time())
  end
  local body = "--" .. boundary .. "\r\n"
    .. 'Content-Disposition: form-data; name="file"; filename="bench.png"\r\n'
    .. "Content-Type: image/png\r\n\r\n"
    .. data .. "\r\n--" .. boundary .. "--\r\n"
  local headers = { ["Content-Type"] = "multipart/form-data; boundary=" .. boundary }
  if key then
    headers["X-API-Key"] = key
  end
  return wrk.format("POST", nil, headers, body)
end
