-- SPDX-License-Identifier: ISC
-- Ardour 7 (Debian's ardour7-lua), headless, dummy backend: build the
-- session that tests/ardour/run-daw-test exports and checks, or reopen
-- and save it again.
-- Environment: CONTACT_URI, CONTACT_SESSION (the session's folder; its
-- name is "daw"), CONTACT_MODE ("create" or "resave"), and for "create"
-- CONTACT_PRESET (a preset URI) and CONTACT_TABLE_PRESET (the URI of a
-- preset whose state names a modal table file, which run-daw-test writes:
-- Ardour's Lua cannot set an LV2 patch property, a preset's state can).
--
-- The timeline (120 bpm, so a beat is 0.5 s; check_daw.c measures these
-- same times):
--   0-7 s    velocity: a note every 1.5 s, 1 s long, velocities 20, 40,
--            64, 90, 127; every lane holds the preset's value.
--   10-14 s  automation: the lanes move (per instrument, below).
-- Snapshots: "default" (the plugin's defaults, the same notes and lanes),
-- "preset" (the preset loaded) and "daw" (the preset, then the table).

local uri = os.getenv("CONTACT_URI")
local folder = os.getenv("CONTACT_SESSION")
local mode = os.getenv("CONTACT_MODE")
local name = "daw"

local function fail(msg)
  print("FAIL " .. msg)
  io.stdout:flush()
  os.exit(1)
end

AudioEngine:set_backend("None (Dummy)", "", "")
if AudioEngine:current_backend_name() ~= "Dummy" then fail("no dummy backend") end

if mode == "resave" then
  -- reopen, save through the plugin's own state:save, close
  local s = load_session(folder, name)
  if not s then fail("cannot load the session " .. folder) end
  local found = false
  for r in Session:get_routes():iter() do
    local pi = r:nth_plugin(0)
    if not pi:isnil() and pi:to_insert():plugin(0):unique_id() == uri then
      found = true
    end
  end
  if not found then fail("the reopened session has no " .. uri) end
  Session:save_state("", false, false, false, false, false)
  print("PASS")
  close_session()
  print("CLOSED")
  io.stdout:flush()
  return
end

local rate = 48000
local function at(seconds) return Temporal.timepos_t(math.floor(seconds * rate + 0.5)) end
local function beats(seconds) return Temporal.Beats(0, math.floor(seconds * 2 * 1920 + 0.5)) end

local s = create_session(folder, name, rate)
if not s then fail("cannot create a session in " .. folder) end

local info = ARDOUR.LuaAPI.new_plugin_info(uri, ARDOUR.PluginType.LV2)
if info:isnil() then fail("Ardour does not find " .. uri) end

-- Strict I/O off, as issue 11 advises: it was seen to crash Ardour 7.3 on a
-- new track now and then (8 runs with it on did not crash here).
local tracks = Session:new_midi_track(
  ARDOUR.ChanCount(ARDOUR.DataType("midi"), 1),
  ARDOUR.ChanCount(ARDOUR.DataType("audio"), 2),
  false, info, nil, nil, 1, "contact", ARDOUR.PresentationInfo.max_order,
  ARDOUR.TrackMode.Normal, true)
if tracks:size() ~= 1 then fail("no MIDI track") end
local track = tracks:front():to_track()
local insert = track:nth_plugin(0):to_insert()
if insert:isnil() or insert:plugin(0):unique_id() ~= uri then
  fail("the instrument is not on the track")
end
local plugin = insert:plugin(0)

-- Lua cannot make a MIDI region from nothing; bouncing an empty range of
-- the MIDI track gives an empty MIDI region to fill.  Adding it under the
-- "insert region" operation lets Ardour set the session range from it
-- (ardour7-export renders that range, and nothing without it).
local length = 15
local region = track:bounce_range(0, length * rate, ARDOUR.InterThreadInfo(),
  ARDOUR.LuaAPI.nil_proc(), false, "notes")
if region:isnil() then fail("cannot bounce an empty MIDI region") end
local playlist = track:playlist()
Session:begin_reversible_command("insert region")
playlist:to_stateful():clear_changes()
playlist:add_region(region, at(0), 1, false)
Session:add_stateful_diff_command(playlist:to_statefuldestructible())
Session:commit_reversible_command(nil)
local range = Session:locations():session_range_location()
if not range or range:_end():samples() ~= length * rate then
  fail("no session range of " .. length .. " s")
end

-- the instrument's settings
local function port_by_label(label)
  for p = 0, plugin:parameter_count() - 1 do
    if plugin:parameter_is_control(p) and plugin:parameter_is_input(p)
        and plugin:parameter_label(p) == label then
      return p
    end
  end
  fail("no parameter '" .. label .. "'")
end
local function control(label)
  return insert:to_automatable():automation_control(
    Evoral.Parameter(ARDOUR.AutomationType.PluginAutomation, 0,
      port_by_label(label)), false)
end

local instrument = uri:match("[^:]+$")
local notes = {}
for i, v in ipairs({20, 40, 64, 90, 127}) do
  notes[#notes + 1] = {1.5 * (i - 1), 1.0, v}
end
local lanes = {}
-- p: the preset's value; each lane is a list of {seconds, value}.  A lane
-- reaches its start by 9.9 s, before the passage's first note: with the
-- step at 10 s itself, the strike at 10 s still had the preset's speed.
if instrument == "impact" then
  -- a strike every 0.25 s while the hammer's speed at velocity 127 rises
  -- eightfold (18 dB)
  for i = 0, 15 do notes[#notes + 1] = {10 + 0.25 * i, 0.1, 100} end
  lanes["Velocity at 127"] = function(p)
    return {{0, p}, {9.5, p}, {9.9, p / 8}, {10, p / 8}, {14, p}}
  end
elseif instrument == "friction" then
  -- one stroke: the exciter lifted (normal force 0) for its first second,
  -- then pressed, the bow speeding up eightfold
  notes[#notes + 1] = {10, 4.5, 127}
  lanes["Normal force"] = function(p)
    return {{0, p}, {9.5, p}, {9.9, 0}, {10.99, 0}, {11, p}}
  end
  lanes["Bow velocity"] = function(p)
    return {{0, p}, {9.5, p}, {9.9, p / 8}, {11, p / 8}, {14, p}}
  end
else
  -- one roll, the ball speeding up eightfold
  notes[#notes + 1] = {10, 4.5, 127}
  lanes["Speed"] = function(p)
    return {{0, p}, {9.5, p}, {9.9, p / 8}, {10, p / 8}, {14, p}}
  end
end

local note = tonumber(os.getenv("CONTACT_NOTE"))
local model = region:to_midiregion():model()
local cmd = model:new_note_diff_command("notes")
for _, n in ipairs(notes) do
  cmd:add(ARDOUR.LuaAPI.new_noteptr(0, beats(n[1]), beats(n[2]), note, n[3]))
end
model:apply_command(Session, cmd)

local function load_preset(preset_uri)
  local pr = plugin:preset_by_uri(preset_uri)
  if not pr or pr.uri ~= preset_uri then fail("no preset " .. preset_uri) end
  if not plugin:load_preset(pr) then fail("cannot load " .. preset_uri) end
  print("preset loaded: " .. pr.label)
end

local preset = os.getenv("CONTACT_PRESET")
load_preset(preset)
for label, lane in pairs(lanes) do
  local ac = control(label)
  local points = lane(ac:get_value())
  local list = ac:alist()
  for _, point in ipairs(points) do list:add(at(point[1]), point[2], false, true) end
  ac:set_automation_state(ARDOUR.AutoState.Play)
  print(string.format("lane %s: %d points, %g at 14 s", label, #points,
    list:eval(at(14))))
end

-- the same session with the plugin's defaults, then with the preset
if not ARDOUR.LuaAPI.reset_processor_to_default(insert) then
  fail("cannot reset the plugin to its defaults")
end
Session:save_state("default", false, false, false, false, false)
load_preset(preset)
Session:save_state("preset", false, false, false, false, false)
load_preset(os.getenv("CONTACT_TABLE_PRESET"))
-- the loaded table takes over in run() (the worker's response), and the
-- plugin saves the table in use: let the engine run it before saving
Session:request_roll(ARDOUR.TransportRequestSource.TRS_UI)
ARDOUR.LuaAPI.usleep(300000)
Session:request_stop(false, false, ARDOUR.TransportRequestSource.TRS_UI)
ARDOUR.LuaAPI.usleep(200000)
Session:request_locate(0, false, ARDOUR.LocateTransportDisposition.MustStop,
  ARDOUR.TransportRequestSource.TRS_UI)
ARDOUR.LuaAPI.usleep(200000)
Session:save_state("", false, false, false, false, false)
print("PASS")
-- Drop every reference to the track before closing (see load.lua).
tracks, track, insert, plugin, info, region, playlist, model, cmd = nil
collectgarbage()
close_session()
print("CLOSED")
io.stdout:flush()
