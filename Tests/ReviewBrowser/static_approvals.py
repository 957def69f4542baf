#!/usr/bin/env python3
"""Drives a static report (opened from disk, no review server) in headless Chromium with Selenium,
as a reviewer would: j goes to the first failing frame, a approves it, j and r reject the next,
"Approve all of cause 1" approves that cause's frames, a reload keeps the decisions, and
"Download approvals.json" writes the file docs/review.md describes. The file is checked against
the results embedded in the page: every frame of cause 1 that can be approved, each with its
goldenHash. Run by BrowserTests.testStaticApprovalsWithSelenium; exits 0 when all holds.

usage: static_approvals.py REPORT_DIR DOWNLOAD_DIR [--chromium PATH] [--chromedriver PATH]
"""
import argparse, json, os, re
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from reviewpage import check, wait, chrome, finish
import reviewpage

p = argparse.ArgumentParser()
p.add_argument('report'); p.add_argument('downloads')
p.add_argument('--chromium', default='/usr/bin/chromium'); p.add_argument('--chromedriver', default='/usr/bin/chromedriver')
args = p.parse_args()
report, downloads = os.path.abspath(args.report), os.path.abspath(args.downloads)
os.makedirs(downloads, exist_ok=True)

# The results as the page reads them.
page = open(os.path.join(report, 'index.html'), encoding='utf-8').read()
blob = re.search(r'<script type="application/json" id="layoutsnap-results">(.*?)</script>', page, re.S).group(1)
results = json.loads(blob)
frames = [fr for fx in results['fixtures'] for st in fx.get('states', []) for fr in st['frames']]
by_golden = {fr['golden']: fr for fr in frames if fr.get('pairing') != 'removed'}
def approvable(fr):
    if fr.get('pairing') == 'removed' or fr['status'] in ('unreadable', 'error'): return False
    return fr['status'] in ('failed', 'missing', 'similar') or fr.get('pairedWith') is not None
cause1 = [fr['golden'] for fr in frames if fr.get('cause') == 1 and approvable(fr)]
check(len(cause1) >= 2, 'cause 1 has %d frames to approve' % len(cause1))

driver = chrome(args.chromium, args.chromedriver, downloads)
try:
    def body(attr): return reviewpage.body(driver, attr)
    def decision(golden): return reviewpage.decision(driver, golden)
    def counter(): return driver.find_element(By.ID, 'review-counter').text
    def press(key): ActionChains(driver).send_keys(key).perform()

    driver.get('file://' + os.path.join(report, 'index.html'))
    wait(lambda: body('data-ready') == 'true', 'the page is ready')
    check(body('data-review') == 'static', 'static mode')
    check(len(driver.find_elements(By.CSS_SELECTOR, 'section#causes article.cause[data-cause="1"]')) == 1, 'cause 1 is listed')

    press('j')
    wait(lambda: body('data-focused'), 'j focuses a frame')
    first = body('data-focused')
    check(first in by_golden and by_golden[first]['status'] in ('failed', 'missing'), 'j went to a failing frame: %s' % first)
    check(len(driver.find_elements(By.CSS_SELECTOR, '.fv.focused[data-golden="%s"]' % first)) == 1, 'the focused frame is highlighted')
    press('a')
    wait(lambda: decision(first) == 'approved', 'a approves ' + first)
    check(counter().startswith('1 approved, 0 rejected'), 'counter after a: ' + counter())
    press('j')
    wait(lambda: body('data-focused') != first, 'j moves on')
    second = body('data-focused')
    press('r')
    wait(lambda: decision(second) == 'rejected', 'r rejects ' + second)
    check(counter().startswith('1 approved, 1 rejected'), 'counter after r: ' + counter())

    button = driver.find_element(By.CSS_SELECTOR, 'button[data-approve-cause="1"]')
    check(button.text == 'Approve all of cause 1', 'cause button text: ' + button.text)
    button.click()
    approved = set(cause1) | {first}
    rejected = {second} - set(cause1)
    expect = '%d approved, %d rejected' % (len(approved), len(rejected))
    wait(lambda: counter().startswith(expect), 'counter after approving cause 1: %s (expected %s)' % (counter(), expect))
    # j on to a failing frame of another cause, if any, and reject it.
    for _ in range(len(frames)):
        at = body('data-focused')
        if at not in cause1 and at not in (first, second) and approvable(by_golden.get(at, {'status': 'passed'})): break
        press('j')
        if body('data-focused') == at: break  # the last failing frame
    third = body('data-focused')
    if third not in cause1 and third not in (first, second):
        press('r')
        wait(lambda: decision(third) == 'rejected', 'r rejects ' + third)
        rejected.add(third)
        approved.discard(third)
    expect = '%d approved, %d rejected' % (len(approved), len(rejected))
    wait(lambda: counter().startswith(expect), 'counter: %s (expected %s)' % (counter(), expect))

    driver.refresh()
    wait(lambda: body('data-ready') == 'true', 'the page is ready again')
    check(counter().startswith(expect), 'decisions kept across a reload: ' + counter())

    command = driver.find_element(By.ID, 'accept-command').text
    check(command == 'layoutsnap accept --approvals approvals.json --from %s/results.json' % report, 'accept command: ' + command)
    driver.find_element(By.ID, 'download-approvals').click()
    target = os.path.join(downloads, 'approvals.json')
    wait(lambda: os.path.exists(target) and not any(n.endswith('.crdownload') for n in os.listdir(downloads)), 'approvals.json downloaded')
    data = json.load(open(target, encoding='utf-8'))
    check(data.get('tool') == 'layoutsnap' and data.get('kind') == 'approvals' and data.get('version') == 1, 'header: %r' % {k: data.get(k) for k in ('tool', 'kind', 'version')})
    got = {a['golden']: a for a in data.get('approvals', [])}
    check(set(got) == approved, 'approvals: %s, expected %s' % (sorted(got), sorted(approved)))
    for golden, entry in got.items():
        want = by_golden.get(golden, {}).get('goldenHash')
        check(entry.get('goldenHash') == want, '%s: goldenHash %r, results.json says %r' % (golden, entry.get('goldenHash'), want))
        check(set(entry) <= {'golden', 'goldenHash'}, '%s: unexpected keys %s' % (golden, sorted(entry)))
    check(set(data.get('rejected', [])) == rejected, 'rejected: %s, expected %s' % (data.get('rejected'), sorted(rejected)))
    print('approvals.json: %d approvals (%d of cause 1), %d rejected' % (len(got), len(cause1), len(data.get('rejected', []))))
finally:
    driver.quit()
finish()
