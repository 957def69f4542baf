#!/usr/bin/env python3
"""The review page served by the real `layoutsnap review`: open the URL it printed (with its
token), click "Approve all of cause 1", and wait until the server has approved every frame of
that cause and the page marks the shown ones approved, without a reload. Run by
ReviewTests.testABrowserApprovesACauseAndVerifyThenPasses; exits 0 when all holds.

usage: real_review.py URL FRAMES [--chromium PATH] [--chromedriver PATH]
  URL     what `layoutsnap review` printed (http://127.0.0.1:PORT/?token=...)
  FRAMES  how many frames cause 1 covers
"""
import argparse, json, urllib.parse, urllib.request
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from reviewpage import check, wait, chrome, finish, body

p = argparse.ArgumentParser()
p.add_argument('url'); p.add_argument('frames', type=int)
p.add_argument('--chromium', default='/usr/bin/chromium'); p.add_argument('--chromedriver', default='/usr/bin/chromedriver')
args = p.parse_args()
token = urllib.parse.parse_qs(urllib.parse.urlparse(args.url).query)['token'][0]
origin = args.url.split('/?')[0]

def review_state():
    request = urllib.request.Request(origin + '/api/review', headers={'X-LayoutSnap-Token': token})
    return json.load(urllib.request.urlopen(request, timeout=5))

driver = chrome(args.chromium, args.chromedriver)
try:
    driver.get(args.url)
    wait(lambda: body(driver, 'data-ready') == 'true', 'the page script finished')
    check(driver.find_elements(By.CSS_SELECTOR, 'meta[name="layoutsnap-review"]'), 'the served page carries the token meta tag')
    check(review_state()['approved'] == [], 'nothing approved before the click')
    marker = driver.execute_script('window.__notReloaded = true; return window.__notReloaded')
    buttons = driver.find_elements(By.CSS_SELECTOR, 'button[data-approve-cause="1"]')
    if check(buttons, 'an "Approve all of cause 1" button'):
        buttons[0].click()
        wait(lambda: len(review_state()['approved']) == args.frames, 'the server approved all %d frames of cause 1' % args.frames, seconds=60)
        ActionChains(driver).send_keys('j').perform()  # the first failing frame, shown and focused
        shown = lambda: driver.find_elements(By.CSS_SELECTOR, '.fv[data-golden]')
        wait(lambda: shown() and all(f.get_attribute('data-decision') == 'approved' for f in shown()),
             'every frame shown is marked approved', seconds=20)
        check(driver.execute_script('return window.__notReloaded === true'), 'the page was not reloaded')
finally:
    driver.quit()
finish()
