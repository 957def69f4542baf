"""What the review page drivers share: headless Chromium under chromedriver, checks collected
instead of raised, and waiting for a condition."""
import sys, time
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

failures = []

def check(cond, what):
    if not cond: failures.append(what)
    return cond

def wait(cond, what, seconds=10):
    """Polls cond until it holds (exceptions count as not yet); a timeout is a failure."""
    end = time.time() + seconds
    while time.time() < end:
        try:
            if cond(): return True
        except Exception:
            pass
        time.sleep(0.05)
    return check(False, 'timed out: ' + what)

def chrome(chromium, chromedriver, downloads=None):
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ('--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--window-size=1280,900'):
        options.add_argument(flag)
    if downloads:
        options.add_experimental_option('prefs', {'download.default_directory': downloads, 'download.prompt_for_download': False,
                                                  'download.directory_upgrade': True, 'safebrowsing.enabled': False})
    driver = webdriver.Chrome(service=Service(chromedriver), options=options)
    if downloads:
        driver.execute_cdp_cmd('Page.setDownloadBehavior', {'behavior': 'allow', 'downloadPath': downloads})
    return driver

def body(driver, attr):
    return driver.find_element(By.TAG_NAME, 'body').get_attribute(attr)

def frame(driver, golden):
    """The frame shown for a golden key (.fv[data-golden]), or None."""
    el = driver.find_elements(By.CSS_SELECTOR, '.fv[data-golden="%s"]' % golden.replace('"', '\\"'))
    return el[0] if el else None

def decision(driver, golden):
    el = frame(driver, golden)
    return el.get_attribute('data-decision') if el else 'not shown'

def finish():
    if failures:
        print('FAILED:\n  ' + '\n  '.join(failures), file=sys.stderr)
        sys.exit(1)
    print('ok')
