#!/usr/bin/env python3
"""The report page in served mode against a stand-in for `layoutsnap review` (docs/review.md,
"Review"): the page reads GET /api/review, sends decisions by POST /api/decisions with the token
header, shows the server's refusals beside the frames, and redraws from results.json on
`event: results` without reloading. The stand-in checks the token and the request shapes.
Run by ReviewBrowserTests.testServedReviewWithSelenium; exits 0 when all holds.

usage: served_review.py REPORT_DIR [--chromium PATH] [--chromedriver PATH]
"""
import argparse, json, os, queue, threading
from http.server import ThreadingHTTPServer, BaseHTTPRequestHandler
from selenium.webdriver.common.by import By
from reviewpage import check, wait, chrome, finish
import reviewpage

p = argparse.ArgumentParser()
p.add_argument('report')
p.add_argument('--chromium', default='/usr/bin/chromium'); p.add_argument('--chromedriver', default='/usr/bin/chromedriver')
args = p.parse_args()
report = os.path.abspath(args.report)
TOKEN = 'f' * 64
results = json.load(open(os.path.join(report, 'results.json'), encoding='utf-8'))
frames = [fr for fx in results['fixtures'] for st in fx.get('states', []) for fr in st['frames']]
cause1 = [fr['golden'] for fr in frames if fr.get('cause') == 1 and fr.get('pairing') != 'removed']
first = cause1[0]          # approved before the page opens
refused = cause1[1]        # the server refuses it
state = {'approved': [first], 'rejected': [], 'posts': [], 'bad': [], 'generation': 1}
events = queue.Queue()

class Handler(BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def authorised(self, post=False):
        ok = self.headers.get('X-LayoutSnap-Token') == TOKEN or (not post and ('layoutsnap-review=' + TOKEN) in (self.headers.get('Cookie') or '')) \
            or (not post and self.path.startswith('/?token=' + TOKEN))
        if not ok:
            state['bad'].append(self.command + ' ' + self.path)
            self.send_response(403); self.end_headers()
        return ok
    def send(self, code, body, kind='application/json', extra=()):
        data = body if isinstance(body, bytes) else body.encode()
        self.send_response(code); self.send_header('Content-Type', kind); self.send_header('Content-Length', str(len(data)))
        for k, v in extra: self.send_header(k, v)
        self.end_headers(); self.wfile.write(data)
    def do_GET(self):
        if not self.authorised(): return
        path = self.path.split('?')[0]
        if path == '/api/review':
            return self.send(200, json.dumps({'generation': state['generation'], 'approved': state['approved'], 'rejected': state['rejected'], 'watch': True}))
        if path == '/api/events':
            self.send_response(200); self.send_header('Content-Type', 'text/event-stream'); self.send_header('Cache-Control', 'no-store'); self.end_headers()
            self.wfile.write(b': hello\n\n'); self.wfile.flush()
            while True:
                try:
                    generation = events.get(timeout=0.5)
                except queue.Empty:
                    try: self.wfile.write(b': ping\n\n'); self.wfile.flush()
                    except Exception: return
                    continue
                self.wfile.write(('event: results\ndata: {"generation": %d}\n\n' % generation).encode()); self.wfile.flush()
        if path in ('/', '/index.html'):
            html = open(os.path.join(report, 'index.html'), encoding='utf-8').read()
            html = html.replace('<head>\n', '<head>\n<meta name="layoutsnap-review" content="%s">\n' % TOKEN, 1)
            return self.send(200, html, 'text/html; charset=utf-8', [('Set-Cookie', 'layoutsnap-review=%s; HttpOnly; SameSite=Strict; Path=/' % TOKEN)])
        file = os.path.normpath(os.path.join(report, path.lstrip('/')))
        if not file.startswith(report + os.sep) or not os.path.isfile(file): return self.send(404, 'not found', 'text/plain')
        kind = 'application/json' if file.endswith('.json') else 'image/png' if file.endswith('.png') else 'application/octet-stream'
        return self.send(200, open(file, 'rb').read(), kind)
    def do_POST(self):
        if not self.authorised(post=True): return
        if self.path != '/api/decisions': return self.send(404, '{}')
        body = json.loads(self.rfile.read(int(self.headers.get('Content-Length', 0))))
        state['posts'].append(body)
        if set(body) != {'decision', 'frames'} or body['decision'] not in ('approve', 'reject'):
            return self.send(400, '{"error": "shape"}')
        out = {'approved': [], 'rejected': [], 'refused': []}
        for k in body['frames']:
            if k == refused and body['decision'] == 'approve':
                out['refused'].append({'golden': k, 'reason': 'the golden changed on disk since verify (Goldens/%s)' % k}); continue
            lst = 'approved' if body['decision'] == 'approve' else 'rejected'
            other = 'rejected' if lst == 'approved' else 'approved'
            if k in state[other]: state[other].remove(k)
            if k not in state[lst]: state[lst].append(k)
            out[lst].append(k)
        return self.send(200, json.dumps(out))

server = ThreadingHTTPServer(('127.0.0.1', 0), Handler)
server.daemon_threads = True
threading.Thread(target=server.serve_forever, daemon=True).start()
port = server.server_address[1]

driver = chrome(args.chromium, args.chromedriver)
try:
    def body(attr): return reviewpage.body(driver, attr)
    def frame(golden): return reviewpage.frame(driver, golden)
    def decision(golden): return reviewpage.decision(driver, golden)

    driver.get('http://127.0.0.1:%d/?token=%s' % (port, TOKEN))
    wait(lambda: body('data-ready') == 'true', 'the page is ready')
    check(body('data-review') == 'served', 'served mode: ' + str(body('data-review')))
    check(not driver.find_elements(By.ID, 'download-approvals'), 'no approvals.json download when served')
    wait(lambda: decision(first) == 'approved', 'the decision the server already had is shown on ' + first)
    driver.execute_script('window.__kept = 1; window.scrollTo(0, 300);')

    driver.find_element(By.CSS_SELECTOR, 'button[data-approve-cause="1"]').click()
    wait(lambda: len(state['posts']) == 1, 'one POST for the cause')
    if state['posts']:
        check(state['posts'][0]['decision'] == 'approve' and set(state['posts'][0]['frames']) == set(cause1), 'POST body: %r' % state['posts'][0])
    wait(lambda: frame(refused) is not None or True, 'refused frame')
    driver.execute_script('document.querySelector("button[data-filter-cause=\\"1\\"]").click()')
    # Show the refused frame: j until it is focused.
    for _ in range(len(frames)):
        if body('data-focused') == refused: break
        driver.find_element(By.TAG_NAME, 'body').send_keys('j')
    wait(lambda: 'the golden changed on disk' in frame(refused).find_element(By.CSS_SELECTOR, '.refusal').text, 'the refusal is shown beside ' + refused)
    check(decision(refused) is None, 'a refused frame is not marked decided: %r' % decision(refused))
    others = [k for k in cause1 if k != refused]
    check(all(k in state['approved'] for k in others), 'the server approved the rest')
    wait(lambda: driver.find_element(By.ID, 'review-counter').text.startswith('%d approved, 0 rejected' % len(others)), 'counter: ' + driver.find_element(By.ID, 'review-counter').text)

    # verify --watch rewrote results.json: the page redraws without a reload.
    changed = json.loads(json.dumps(results))
    for fx in changed['fixtures']:
        for st in fx.get('states', []):
            for fr in st['frames']:
                if fr['golden'] == refused: fr['message'] = 'REDRAWN: 1 pixel differs'
    path = os.path.join(report, 'results.json')
    original = open(path, 'rb').read()
    open(path, 'w', encoding='utf-8').write(json.dumps(changed))
    state['generation'] = 2
    events.put(2)
    try:
        wait(lambda: 'REDRAWN: 1 pixel differs' in frame(refused).text, 'the new results are drawn', 15)
        check(driver.execute_script('return window.__kept') == 1, 'redrawn without a reload')
        check(body('data-focused') == refused, 'still on the frame')
        wait(lambda: decision(others[0]) == 'approved', 'decisions kept after the redraw')
    finally:
        open(path, 'wb').write(original)
    check(not state['bad'], 'requests without the token: %r' % state['bad'])
    print('served: %d POST, %d approved, 1 refused, redrawn on event: results' % (len(state['posts']), len(others)))
finally:
    driver.quit()
    server.shutdown()
finish()
