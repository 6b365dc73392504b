#!/usr/bin/env python3
"""Meshport's web UI in a real browser: Debian's chromium, headless, driven by Selenium through
chromium-driver, against `meshport serve` on `meshport sim`. Each check prints "PASS name" or
"FAIL name: reason" and leaves a screenshot; the last line is "N passed, M failed".

Usage: browser_test.py MESHPORT_BINARY ARTIFACT_DIR
"""
import os
import re
import sys
import time
import traceback

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from servers import Servers
from tiles import TileServer
from postgres import Postgres, seed_region
from pipeline import NODES, TEXTS, Pipeline

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
DESKTOP = (1280, 860)
PHONE = (390, 844)
LEAFLET = "/usr/share/javascript/leaflet/leaflet.js"
TILES = TileServer()


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                f"--window-size={DESKTOP[0]},{DESKTOP[1]}", "--lang=en-GB", "--no-first-run"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(20)
    driver.set_script_timeout(10)
    return driver


class Check(AssertionError):
    pass


class Session:
    """One browser on one server, with the waits the checks share."""

    def __init__(self, driver, base):
        self.d = driver
        self.base = base

    def open(self, route):
        self.d.get(f"{self.base}/#/{route}")

    def go(self, route):
        # Changes the route without loading the page again (as a click on a link does).
        self.d.execute_script("location.hash = arguments[0]", f"#/{route}")

    def wait(self, what, condition, timeout=15):
        try:
            # Lists are redrawn when events arrive: an element seen a moment ago may be gone.
            return WebDriverWait(self.d, timeout, poll_frequency=0.1, ignored_exceptions=(StaleElementReferenceException,)).until(lambda d: condition())
        except TimeoutException:
            raise Check(f"not seen within {timeout} s: {what}") from None

    def find(self, css, text=None, timeout=15):
        def found():
            for el in self.d.find_elements(By.CSS_SELECTOR, css):
                try:
                    if text is None or text in el.text:
                        return el
                except WebDriverException:
                    pass
            return None
        return self.wait(f"{css}" + (f" containing {text!r}" if text else ""), found, timeout)

    def click(self, css, text=None, timeout=15):
        """Clicks the element, found again if a redraw replaced it meanwhile."""
        def clicked():
            try:
                self.find(css, text, timeout).click()
                return True
            except StaleElementReferenceException:
                return False
        self.wait(f"a click on {css}", clicked, timeout)

    def all(self, css):
        return self.d.find_elements(By.CSS_SELECTOR, css)

    def mark_page(self):
        """Tags this page load, so a check can tell a live update from a reload."""
        self.d.execute_script("window.__meshportTestMark = 'kept'")

    def page_kept(self):
        return self.d.execute_script("return window.__meshportTestMark") == "kept"

    def console_errors(self):
        errors = []
        for entry in self.d.get_log("browser"):
            # Failed requests the UI handles (it shows their message) are logged as SEVERE too.
            if entry["level"] == "SEVERE" and "Failed to load resource" not in entry["message"]:
                errors.append(entry["message"])
        return errors


CHECKS = []


def check(name):
    def register(fn):
        CHECKS.append((name, fn))
        return fn
    return register


def expect(condition, message):
    if not condition:
        raise Check(message)


@check("the UI loads, connects and shows the chats")
def loads(s, servers):
    s.open("chats")
    s.find("#connection[data-state='ready']")
    expect(s.find("#connection-label").text == "connected", "the indicator does not say connected")
    s.find(".chat-item", "Public")
    badge = s.find("#unread-total")
    s.wait("the unread total", lambda: badge.is_displayed() and badge.text.isdigit() and int(badge.text) > 0)
    expect(s.d.title.startswith("("), f"the title does not show the unread count: {s.d.title!r}")


@check("contacts: search, type filter, details with path")
def contacts(s, servers):
    s.go("contacts")
    # 250 contacts: the list draws 200, the rest on request.
    s.wait("the first 200 contacts", lambda: len(s.all(".contact-item")) == 200)
    total = int(s.find(".count").text.split()[0])
    expect(total >= 250, f"the count says {total} contacts")
    s.click("button.more", "more")
    # Compared with the count as it is then: a newcomer's advert may add one meanwhile.
    s.wait("all contacts", lambda: len(s.all(".contact-item")) == int(s.find(".count").text.split()[0]))
    search = s.find("input[name='q']")
    search.send_keys("Ced")
    s.wait("only Cedar", lambda: [e.text for e in s.all(".contact-item .chat-name")] == ["Cedar"])
    search.clear()
    search.send_keys(Keys.BACKSPACE)
    Select(s.find("select[name='type']")).select_by_value("repeater")
    s.wait("the two repeaters", lambda: sorted(e.text for e in s.all(".contact-item .chat-name")) == ["Repeater North", "Repeater South"])
    Select(s.find("select[name='type']")).select_by_value("")
    s.click(".contact-item", "Cedar")
    card = s.find(".contact-card", "Public key")
    expect(re.search(r"\b[0-9a-f]{64}\b", card.text), "no 64-digit public key in the details")
    expect("Path" in card.text and "Last advert" in card.text, "the details lack the path or the last advert")


@check("send a DM and watch it become delivered, live")
def dm_delivered(s, servers):
    s.click(".contact-card a.button", "Message")
    box = s.find(".composer textarea")
    s.mark_page()
    text = f"hello from the browser test {int(time.time())}"
    box.send_keys(text, Keys.ENTER)
    mine = s.find("li.msg.out", text)
    s.wait("status delivered", lambda: s.find("li.msg.out", text).get_attribute("data-status") == "delivered", 20)
    meta = s.find("li.msg.out", text).text
    expect("delivered" in meta and "round trip" in meta, f"the delivered message does not show its round trip: {meta!r}")
    expect(s.page_kept(), "the page was reloaded; the status should change in place")
    expect(mine is not None and box.get_attribute("value") == "", "the composer was not cleared")


@check("opening a chat marks it read and updates the badges")
def unread(s, servers):
    s.go("chats")
    s.find(".chat-item", "Vale")
    s.wait("Vale's unread badge", lambda: s.find(".chat-item", "Vale").get_attribute("data-unread") not in ("0", None))
    before = int(s.find("#unread-total").text or 0)
    s.click(".chat-item", "Vale")
    s.find(".conversation h2", "Vale")
    s.wait("Vale read", lambda: s.find(".chat-item", "Vale").get_attribute("data-unread") == "0")
    s.wait("the total falls", lambda: int(s.find("#unread-total").text or 0) < before or not s.find("#unread-total").is_displayed())


@check("a long channel pages back with 'Load older messages'")
def older(s, servers):
    s.go("chat/channel/0")
    s.find(".conversation h2", "Public")
    # The sim's backlog put 120 messages on Public: a page is 50.
    s.wait("the first page", lambda: len(s.all(".conversation li.msg")) >= 50)
    first = [int(e.get_attribute("data-id")) for e in s.all(".conversation li.msg")]
    s.click("button.older", "Load older")
    s.wait("an older page", lambda: len(s.all(".conversation li.msg")) >= len(first) + 50)
    ids = [int(e.get_attribute("data-id")) for e in s.all(".conversation li.msg")]
    expect(ids == sorted(ids) and len(set(ids)) == len(ids), "the messages are not in order, or repeat")
    expect(set(first) <= set(ids) and min(ids) < min(first), "the older page did not add older messages")


@check("a channel message arrives live")
def receive_live(s, servers):
    s.go("chat/channel/0")
    s.find(".conversation h2", "Public")
    s.wait("the channel's messages", lambda: len(s.all("li.msg.in")) > 0)
    before = len(s.all("li.msg.in"))
    s.mark_page()
    # MeshSim's chatter says something on Public every 4-10 s.
    s.wait("a new channel message", lambda: len(s.all("li.msg.in")) > before, 25)
    last = s.all("li.msg.in")[-1].text
    expect(s.page_kept(), "the page was reloaded")
    expect(last.strip(), "the new message is empty")


@check("change a setting; the radio's read-back is shown; a bad value is refused")
def settings(s, servers):
    s.go("settings")
    field = s.find(".setting[data-name='name'] input")
    field.clear()
    field.send_keys("Browser Radio")
    s.click(".setting[data-name='name'] button")
    result = s.find(".setting[data-name='name'] .result.ok", "Browser Radio")
    expect("now reports Browser Radio" in result.text, f"unexpected result: {result.text!r}")
    expect(servers.api("/api/radios/0/self")["name"] == "Browser Radio", "the radio does not report the new name")
    sf = s.find(".setting[data-name='sf'] input")
    sf.clear()
    sf.send_keys("99", Keys.ENTER)
    error = s.find(".setting[data-name='sf'] .result.error")
    expect(error.text.strip(), "the refusal says nothing")
    expect(servers.api("/api/radios/0/settings/sf")["value"] == "10", "the bad value reached the radio")


@check("the radio sends its advert, zero-hop or flood, and says what went")
def advert(s, servers):
    def sent():
        sample = servers.api("/api/radios/0/stats/sample", method="POST")
        return sample["sentDirect"], sample["sentFlood"]
    direct, flood = sent()
    s.go("settings")
    s.click("#advert-zero-hop")
    result = s.find("#advert-result.ok", "zero-hop advert")
    expect("without a position" in result.text, f"unexpected result: {result.text!r}")
    s.click("#advert-flood")
    s.find("#advert-result.ok", "flood advert")
    expect(sent() == (direct + 1, flood + 1), f"the radio's counters say {sent()}, from {(direct, flood)}")


@check("a regional preset fills the radio field and is written")
def radio_preset(s, servers):
    s.go("settings")
    menu = s.find(".setting[data-name='radio'] select.presets")
    Select(menu).select_by_visible_text("EU/UK (Narrow)")
    field = s.find(".setting[data-name='radio'] input")
    expect(field.get_attribute("value") == "869.618,62.5,8,8", f"the field shows {field.get_attribute('value')!r}")
    s.click(".setting[data-name='radio'] button")
    s.find(".setting[data-name='radio'] .result.ok", "869.618,62.5,8,8")
    expect(servers.api("/api/radios/0/settings/radio")["value"] == "869.618,62.5,8,8", "the radio does not report the preset")


@check("search finds messages and opens their conversation")
def search(s, servers):
    s.go("search")
    box = s.find("input[name='q']")
    box.send_keys("weather", Keys.ENTER)
    hit = s.find(".hit", "weather")
    expect(any(m.text.lower() == "weather" for m in hit.find_elements(By.CSS_SELECTOR, "mark")), "the match is not marked")
    s.click(".hit", "weather")
    s.wait("the conversation", lambda: s.d.current_url.endswith("#/chat/channel/0"))
    s.find(".conversation h2", "Public")


@check("the map draws positions offline, with graticule and scale")
def map_view(s, servers):
    s.go("map")
    s.wait("markers", lambda: len(s.all("svg.map .marker")) >= 20)
    expect(len(s.all("svg.map .marker.self")) == 1, "this radio is not on the map")
    expect(len(s.all("svg.map .graticule line")) >= 4, "no graticule")
    scale = s.find("svg.map .scale text").text
    expect(re.fullmatch(r"\d+ (m|km)", scale), f"the scale reads {scale!r}")
    s.d.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", s.find("svg.map .marker[data-key]:not(.self)"))
    info = s.find(".map-info")
    expect("from this radio" in info.text, f"the marker's card lacks the distance: {info.text!r}")
    expect("No map tiles" in s.find(".map-legend").text, "the legend does not say the map is drawn offline")
    hosts = s.d.execute_script("return performance.getEntriesByType('resource').map(e => new URL(e.name).host)")
    here = s.d.execute_script("return location.host")
    expect(all(h in (here, TILES.host) for h in hosts), f"the UI fetched from other hosts: {sorted(set(hosts) - {here, TILES.host})}")


@check("the map draws tiles with Leaflet when the tile server answers")
def map_tiles(s, servers):
    expect(os.path.exists(LEAFLET), f"{LEAFLET} is missing (make deps installs libjs-leaflet)")
    TILES.up = True
    try:
        s.go("chats")
        s.go("map")
        s.wait("tiles", lambda: len(s.all(".map-tiles img.leaflet-tile-loaded")) >= 1)
        s.wait("markers on the tiles", lambda: len(s.all(".map-tiles path.marker")) >= 20)
        expect(len(s.all(".map-tiles path.marker.self")) == 1, "this radio is not on the tiled map")
        expect(len(s.all("svg.map:not([hidden])")) == 0, "the offline drawing still shows")
        expect("Map tiles" in s.find(".map-legend").text, "the legend does not say where the tiles come from")
        s.d.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", s.find(".map-tiles path.marker:not(.self)"))
        info = s.find(".map-info")
        expect("from this radio" in info.text, f"the marker's card lacks the distance: {info.text!r}")
        expect(TILES.served >= 1, "no tile was asked of the tile server")
    finally:
        TILES.up = False


@check("the region view: observers and nodes on the map, lines by SNR, packets, channel messages, observers")
def region(s, servers):
    s.find("#region-tab:not([hidden])")
    s.go("region")
    s.wait("the region's markers", lambda: len(s.all("svg.map .marker")) >= 7)
    expect(len(s.all("svg.map .marker.observer")) == 3, f"{len(s.all('svg.map .marker.observer'))} observers drawn, not 3")
    lines = s.all("svg.map line.link")
    expect(len(lines) == 7, f"{len(lines)} observer-to-node lines, not 7")
    classes = {c for line in lines for c in line.get_attribute("class").split()}
    expect({"snr-good", "snr-poor", "snr-bad"} <= classes, f"the lines are not coloured by SNR: {classes}")
    s.wait("the packet table", lambda: len(s.all("tr.region-packet")) == 4)
    s.click(".region-tabs button", "Channel messages")
    s.find("tr.region-message", "hello from the region")
    s.click(".region-tabs button", "Observers")
    s.wait("the observers", lambda: len(s.all("tr.region-observer")) == 3)
    rows = [r.text for r in s.all("tr.region-observer")]
    expect(any("Roof North" in r and "online" in r for r in rows) and not any("undefined" in r for r in rows), f"the observers: {rows}")
    s.d.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", s.find("svg.map .marker[data-key='" + "b1" * 32 + "']"))
    info = s.find(".map-info")
    expect("Heard best by Roof North: 9.5 dB" in info.text, f"the node's card: {info.text!r}")
    s.click(".map-info button", "Observations")
    s.wait("Hilltop's observations", lambda: len(s.all("tr.region-observation")) == 3)


def log_in(s, node, password):
    """Opens the node from the Nodes tab and logs in with the password."""
    s.go("nodes")
    s.click(".contact-item", node)
    s.find(".node-page h2", node)
    s.find("input[name='password']").send_keys(password, Keys.ENTER)
    s.find(".result.ok", "Logged in", 20)


@check("remote node: log in to a repeater, read status and telemetry")
def repeater(s, servers):
    log_in(s, "Repeater North", "password")
    s.find("section[aria-label='Login']", "Logged in as admin")
    s.click("button", "Request status")
    s.find(".status-table", "Battery", 20)
    s.click("button", "Request telemetry")
    s.find(".readings", "voltage", 20)
    s.wait("the status chart", lambda: len(s.all("figure.chart circle")) > 0, 20)


@check("room server: log in, read the posts, post")
def room(s, servers):
    log_in(s, "Town Square", "hello")
    s.find(".room li.msg", "Welcome to Town Square", 20)
    s.find("input[name='post']").send_keys("hello from the browser", Keys.ENTER)
    s.find(".room li.msg.out", "hello from the browser")


def packet_rows(s):
    """The packet table's rows, read in one go (live packets keep redrawing it)."""
    return s.d.execute_script(
        "return [...document.querySelectorAll('tr.packet')].map(r => ({kind: r.dataset.kind, cells: [...r.cells].map(c => c.textContent)}))")


@check("packets: the log fills live with signal, hash and kind; filters by type; a node's page links to its packets")
def packets(s, servers):
    s.go("packets")
    s.find(".packet-table")
    s.wait("heard packets", lambda: len(packet_rows(s)) > 0, 30)
    s.mark_page()
    newest = packet_rows(s)[0]["cells"]
    # MeshSim's chatter says something on Public every 4-10 s: its packets join the top.
    s.wait("a live packet", lambda: packet_rows(s)[0]["cells"] != newest, 30)
    expect(s.page_kept(), "the page was reloaded; live packets should join in place")
    cells = packet_rows(s)[0]["cells"]
    expect(re.fullmatch(r"-?[0-9.]+ dB", cells[1]) and re.fullmatch(r"-?\d+ dBm", cells[2]), f"no SNR and RSSI in {cells}")
    expect(re.fullmatch(r"[0-9A-F]{16}", cells[5]), f"no packet hash in {cells}")
    Select(s.find("select[name='type']")).select_by_value("grouptext")
    s.wait("only channel texts", lambda: (rows := packet_rows(s)) and all(r["kind"] == "groupText" for r in rows))
    expect(any("channel text on #0" in r["cells"][6] for r in packet_rows(s)), "no packet decoded as Public's")
    s.go("nodes")
    s.click(".contact-item", "Repeater North")
    s.click(".node-page a.button", "Packets heard")
    s.find(".packets h2", "Packets from Repeater North")
    expect(re.search(r"#/packets/[0-9a-f]{64}$", s.d.current_url), f"the node's packets are not at its key: {s.d.current_url}")


@check("phone width: one pane at a time, nothing wider than the screen")
def phone(s, servers):
    s.d.set_window_size(*PHONE)
    s.open("chats")
    s.find(".chat-item", "Public")
    expect(not s.find(".chat-pane").is_displayed(), "the conversation pane shows beside the list")
    s.click(".chat-item", "Public")
    s.find(".conversation h2", "Public")
    expect(not s.find(".list-pane").is_displayed(), "the list still shows beside the conversation")
    width = s.d.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    expect(width[0] <= width[1], f"the page is wider than the screen: {width}")
    s.d.save_screenshot(os.path.join(ARTIFACTS, "phone-conversation.png"))
    s.click(".conversation .back")
    s.find(".chat-item", "Public")
    expect(s.find(".list-pane").is_displayed(), "the back link did not bring the list back")


@check("the indicator follows the radio: lost, then back with sync progress")
def connection(s, servers):
    s.d.set_window_size(*DESKTOP)
    s.open("chats")
    s.find("#connection[data-state='ready']")
    s.mark_page()
    # Records every sync label shown while the radio comes back (it shows only briefly).
    s.d.execute_script("""
        window.__syncLabels = [];
        const box = document.getElementById('sync');
        new MutationObserver(() => { if (!box.hidden) window.__syncLabels.push(document.getElementById('sync-label').textContent); })
            .observe(box, {attributes: true, subtree: true, childList: true, characterData: true});""")
    servers.stop_sim()
    s.wait("the radio shown as not connected", lambda: s.find("#connection").get_attribute("data-state") != "ready", 20)
    s.d.save_screenshot(os.path.join(ARTIFACTS, "radio-lost.png"))
    servers.start_sim()
    s.find("#connection[data-state='ready']", timeout=40)
    expect(s.page_kept(), "the page was reloaded")
    labels = s.d.execute_script("return window.__syncLabels")
    expect(any(l.startswith("Syncing contacts") for l in labels), f"no contact sync progress was shown: {labels}")


def token_login(meshport):
    """A server with a token: the UI asks for it, refuses a wrong one, and works with the right one."""
    work_token = os.path.join(ARTIFACTS, "token-test")
    os.makedirs(work_token, exist_ok=True)
    token_file = os.path.join(work_token, "token")
    if os.path.exists(token_file):
        os.remove(token_file)
    servers = Servers(meshport, ["--token-file", token_file]).start()
    driver = browser()
    try:
        token = open(token_file).read().strip()
        servers.wait_ready(token=token)
        s = Session(driver, servers.url)
        s.open("chats")
        box = s.find("form#login input[name='token']")
        box.send_keys("0" * 64, Keys.ENTER)
        s.find("form#login .error", "not this server's token")
        box = s.find("form#login input[name='token']")
        box.clear()
        box.send_keys(token, Keys.ENTER)
        s.find("#connection[data-state='ready']", timeout=20)
        s.find(".chat-item", "Public")
        errors = s.console_errors()
        expect(not errors, f"console errors: {errors}")
    finally:
        driver.save_screenshot(os.path.join(ARTIFACTS, "token-login.png"))
        driver.quit()
        servers.stop()


def region_from_pipeline(meshport, postgres):
    """The Region view on what the pipeline stored (Tools/Web/pipeline.py), not on a seeded
    database: the scenario's nodes and the three observers (placed by their own adverts) at their
    places, the observers' lines where both ends have a place, packets, the Public texts."""
    pipeline = Pipeline(meshport, postgres, "pipeline")
    servers = driver = None
    try:
        pushed = pipeline.run()
        servers = Servers(meshport, extra=["--map-tiles", TILES.template, "--history", pipeline.url]).start()
        nodes = servers.api("/api/region/nodes?limit=5000")["nodes"]
        for name, _, latitude, longitude in NODES:
            node = next((n for n in nodes if n.get("name") == name), {})
            expect(abs(node.get("latitude", 0) - latitude) < 1e-5 and abs(node.get("longitude", 0) - longitude) < 1e-5,
                   f"{name} is listed as {node}, placed at {latitude}, {longitude}")
        placed = {n["key"] for n in nodes if "latitude" in n}
        links = servers.api("/api/region/links")["links"]
        expect(links, f"no observer hears a node directly ({len(pushed)} hearings stored)")
        drawable = [link for link in links if link["observer"] in placed and link["node"] in placed]
        driver = browser()
        s = Session(driver, servers.url)
        s.open("region")
        s.find("#region-tab:not([hidden])")
        s.wait("a marker for every placed node", lambda: len(s.all("svg.map .marker")) == len(placed))
        # The map is drawn again as data arrives: elements read through wait() (stale ones retried).
        keys = s.wait("the markers' keys", lambda: {m.get_attribute("data-key") for m in s.all("svg.map .marker")})
        expect(keys == placed, f"the markers are not the placed nodes: {sorted(keys ^ placed)}")
        # The gateways sent their adverts with their places (pipeline.py), so each observer is
        # on the map and draws its lines to the nodes it hears directly.
        expect(len(drawable) >= len(NODES), f"only {len(drawable)} links have both ends placed: {links}")
        s.wait("the three observers' markers", lambda: len(s.all("svg.map .marker.observer")) == 3)
        s.wait(f"{len(drawable)} observer-to-node lines, one per link with both ends placed", lambda: len(s.all("svg.map line.link")) == len(drawable))
        ann = next(n["key"] for n in nodes if n.get("name") == "ann")
        s.wait("a click on ann's marker", lambda: s.d.execute_script(
            "const m = document.querySelector(arguments[0]); if (m) m.dispatchEvent(new MouseEvent('click', {bubbles: true})); return !!m;",
            f"svg.map .marker[data-key='{ann}']"))
        best = next((link for link in links if link["node"] == ann), None)
        info = s.wait("ann's card saying who hears her best", lambda: (t := s.find(".map-info").text) and "Heard best by " in t and t)
        expect(best and "Heard best by " in info, f"ann's card does not say who hears her best: {info!r} (links: {best})")
        s.wait("the packet table", lambda: len(s.all("tr.region-packet")) > 0)
        driver.save_screenshot(os.path.join(ARTIFACTS, "region-pipeline-map.png"))
        s.click(".region-tabs button", "Channel messages")
        for _, text, _ in TEXTS:
            s.find("tr.region-message", text)
        rows = len(s.all("tr.region-message"))
        expect(rows == len(TEXTS), f"{rows} channel messages shown, the scenario sent {len(TEXTS)}")
        driver.save_screenshot(os.path.join(ARTIFACTS, "region-pipeline-channels.png"))
        s.click(".region-tabs button", "Observers")
        s.wait("the three observers", lambda: len(s.all("tr.region-observer")) == 3)
        errors = s.console_errors()
        expect(not errors, f"console errors: {errors}")
    finally:
        if driver:
            driver.save_screenshot(os.path.join(ARTIFACTS, "region-pipeline.png"))
            driver.quit()
        if servers:
            servers.stop()
        pipeline.stop()


def main():
    global ARTIFACTS
    meshport, ARTIFACTS = sys.argv[1], sys.argv[2]
    os.makedirs(ARTIFACTS, exist_ok=True)
    passed = failed = 0
    servers = None
    driver = None
    postgres = None
    try:
        scenario = os.path.join(ARTIFACTS, "scenario.json")
        with open(scenario, "w") as f:
            # The default mesh, plus 120 channel messages waiting (for paging) and 230 more
            # companions (more than the contact list draws at once).
            f.write('{"extendsDefault": true, "radio": {"offlineQueueSize": 200, "maxContacts": 400},'
                    ' "generate": [{"count": 230, "type": "chat", "namePrefix": "Gen", "maxHops": 2}],'
                    ' "backlog": {"dms": 0, "channel": 120, "text": "backlog"}}')
        TILES.start()
        postgres = Postgres().start()
        history = postgres.create("region")
        servers = Servers(meshport, extra=["--map-tiles", TILES.template, "--history", history], sim_extra=["--scenario", scenario]).start()
        seed_region(postgres, "region")
        servers.wait_ready()
        driver = browser()
        session = Session(driver, servers.url)
        for index, (name, fn) in enumerate(CHECKS, 1):
            shot = os.path.join(ARTIFACTS, f"{index:02d}-{re.sub(r'[^a-z0-9]+', '-', name.lower())[:40].strip('-')}.png")
            try:
                fn(session, servers)
                errors = session.console_errors()
                if errors:
                    raise Check(f"console errors: {errors}")
                print(f"PASS {name}")
                passed += 1
            except Exception as error:  # a failed check must not stop the others
                reason = str(error) if isinstance(error, Check) else "".join(traceback.format_exception_only(error)).strip()
                print(f"FAIL {name}: {reason}")
                failed += 1
            finally:
                driver.save_screenshot(shot)
        try:
            token_login(meshport)
            print("PASS a server with a token asks for it and refuses a wrong one")
            passed += 1
        except Exception as error:
            print(f"FAIL a server with a token asks for it and refuses a wrong one: {error}")
            failed += 1
        name = "the region view on what sim, gateways, broker and ingest stored: nodes and observers in place, lines, who hears them, packets, Public texts"
        try:
            region_from_pipeline(meshport, postgres)
            print(f"PASS {name}")
            passed += 1
        except Exception as error:
            print(f"FAIL {name}: {error}")
            failed += 1
    except Exception as error:
        print(f"FAIL setup: {error}")
        failed += 1
    finally:
        if driver:
            driver.quit()
        if servers:
            servers.stop()
        TILES.stop()
        if postgres:
            postgres.stop()
    print(f"screenshots: {ARTIFACTS}")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
