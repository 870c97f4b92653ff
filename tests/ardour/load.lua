-- SPDX-License-Identifier: ISC
-- Ardour 7 (Debian's ardour7-lua), headless: find the plugin by URI, put it
-- on a new MIDI track and check that every port became a parameter Ardour
-- understands.  Ardour refuses a plugin whose ports it cannot type (a CV
-- port, say), so instantiating it on the track is the test.
-- Environment: CONTACT_URI, CONTACT_PORTS (control ports expected),
-- CONTACT_SESSION (a folder for the throwaway session).

local uri = os.getenv("CONTACT_URI")
local expected = tonumber(os.getenv("CONTACT_PORTS"))
local folder = os.getenv("CONTACT_SESSION")

local function fail(msg)
  print("FAIL " .. msg)
  close_session()
  os.exit(1)
end

AudioEngine:set_backend("None (Dummy)", "", "")
assert(AudioEngine:current_backend_name() == "Dummy", "no dummy backend")
local s = create_session(folder, "contact-test", 48000)
assert(s, "cannot create a session in " .. folder)

local info = ARDOUR.LuaAPI.new_plugin_info(uri, ARDOUR.PluginType.LV2)
if info:isnil() then fail("Ardour does not find " .. uri) end
print("found " .. uri .. ": " .. info.name)

local tracks = Session:new_midi_track(
  ARDOUR.ChanCount(ARDOUR.DataType("midi"), 1),
  ARDOUR.ChanCount(ARDOUR.DataType("audio"), 2),
  true, info, nil, nil, 1, "contact", ARDOUR.PresentationInfo.max_order,
  ARDOUR.TrackMode.Normal, true)
if tracks:size() ~= 1 then fail("no MIDI track") end
local track = tracks:front()

local insert = nil
for i = 0, 8 do
  local proc = track:nth_plugin(i)
  if proc:isnil() then break end
  local pi = proc:to_insert()
  if not pi:isnil() and pi:plugin(0):unique_id() == uri then insert = pi end
end
if not insert then fail("the instrument is not on the MIDI track") end
local plugin = insert:plugin(0)

local controls = 0
for i = 0, plugin:parameter_count() - 1 do
  if plugin:parameter_is_control(i) then controls = controls + 1 end
end
print(string.format("on track '%s': %s, %d control parameters",
  track:name(), plugin:name(), controls))
if controls ~= expected then
  fail(string.format("%d control parameters, expected %d", controls, expected))
end
if insert:output_streams():n_audio() ~= 2 then
  fail("expected 2 audio outputs, got " .. insert:output_streams():n_audio())
end

-- let the engine run the plugin for a moment
Session:request_roll(ARDOUR.TransportRequestSource.TRS_UI)
ARDOUR.LuaAPI.usleep(500000)
if not insert:active() then fail("the instrument is not active") end
print("PASS")
-- Drop every reference to the track before closing: a route still held by
-- Lua is destroyed when luasession tears the Lua state down, after the
-- engine is gone, and unregistering its ports then reads freed memory
-- (a segmentation fault under MALLOC_PERTURB_, which meson test sets).
tracks, track, insert, plugin, info = nil, nil, nil, nil, nil
collectgarbage()
close_session()
-- the script's last line: run-ardour-test reads what happens after it
print("CLOSED")
io.stdout:flush()
