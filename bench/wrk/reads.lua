-- The read scenarios under wrk (run by bench/wrk-load.ts as `wrk -t1 ... -s reads.lua URL -- PATHS_FILE`).
--
-- Arguments: the file of request paths, one a line, written by the harness from the
-- scenario's own path function, so wrk asks for the same random seeded users as autocannon.
-- Environment: WRK_HEADERS, header lines `name: value` sent with every request (the run's
-- bearer token: kept out of the command line, which any user of the machine can read).
--
-- Every request is formatted once in init(); request() only hands the next one out, cycling
-- through the file, so the per-request cost in wrk stays a table lookup. There is no
-- response() hook on purpose: with one, wrk parses every response's headers and body.
--
-- done() prints one line, `wrk-result {JSON}`: wrk's counts, latency percentiles of all
-- responses in microseconds, and wrk's own CPU time in clock ticks from the end of the
-- first thread's init() (files read, requests formatted) to the end of the run.

local prepared = {}
local count = 0
local next_index = 1

-- The threads, kept by the setup/done environment (a separate Lua state from the threads').
local threads = {}

-- utime + stime of this process so far, in clock ticks (fields 14 and 15 of /proc/self/stat;
-- counted after the parenthesised command name, they are the 12th and 13th).
local function cpu_ticks()
  local file = assert(io.open("/proc/self/stat", "r"))
  local stat = file:read("*a")
  file:close()
  local fields = {}
  for field in stat:match("%) (.*)$"):gmatch("%S+") do fields[#fields + 1] = field end
  return tonumber(fields[12]) + tonumber(fields[13])
end

function setup(thread)
  threads[#threads + 1] = thread
  thread:set("id", #threads)
end

function init(args)
  for line in (os.getenv("WRK_HEADERS") or ""):gmatch("[^\n]+") do
    local name, value = line:match("^([^:]+):%s*(.*)$")
    if name then wrk.headers[name] = value end
  end
  local file = assert(io.open(args[1], "r"))
  for path in file:lines() do
    if path ~= "" then
      count = count + 1
      prepared[count] = wrk.format("GET", path)
    end
  end
  file:close()
  assert(count > 0, "no request paths in " .. tostring(args[1]))
  -- Should more threads ever run, each starts at its own place in the file.
  next_index = ((id - 1) * 7919) % count + 1
  cpu_at_start = cpu_ticks()
end

function request()
  local r = prepared[next_index]
  next_index = next_index % count + 1
  return r
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'wrk-result {"duration_us":%.0f,"requests":%.0f,"status_errors":%.0f,"connect_errors":%.0f,"read_errors":%.0f,' ..
    '"write_errors":%.0f,"timeouts":%.0f,"p50_us":%.0f,"p90_us":%.0f,"p99_us":%.0f,"cpu_ticks":%.0f}\n',
    summary.duration, summary.requests, e.status, e.connect, e.read, e.write, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99),
    cpu_ticks() - threads[1]:get("cpu_at_start")))
end
