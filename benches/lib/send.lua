-- wrk's script for sends (benches/overload.rs, benches/wrk-send.sh): every request a send to one
-- of 5,000 numbers with the key in PIGEON_KEY; WRK_DELAY_MS, when set, pauses between requests.
local n = 0
function init(args)
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["Authorization"] = "Bearer " .. os.getenv("PIGEON_KEY")
end
function delay()
  return tonumber(os.getenv("WRK_DELAY_MS") or "0")
end
function request()
  n = n + 1
  return wrk.format(nil, "/v1/messages", nil, string.format('{"to":"+1415555%04d","body":"load test message"}', n % 5000))
end
