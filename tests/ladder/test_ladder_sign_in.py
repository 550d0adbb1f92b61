"""Guessing passwords is slowed without letting anyone lock a player out: failures slow the
address that makes them (doubling waits), and failures from everywhere slow only addresses
the account has not signed in from lately (OWASP: throttle by account and address, back off
rather than lock out)."""

from __future__ import annotations

from ladder_helpers import PASSWORD, Site, TestClient, make_site, sqlite_url

WRONG = "not the password"


def client_at(site: Site, address: str) -> TestClient:
    return TestClient(site.client.app, client=(address, 50000))


def sign_in(client: TestClient, password: str, name: str = "alice") -> int:
    answer = client.post("/api/sessions", json={"name": name, "password": password})
    return answer.status_code


def test_a_rival_failing_from_anywhere_locks_no_one_out_at_home(tmp_path) -> None:
    # F11: 10 wrong passwords for a name from any addresses made even the right password
    # get 429 for 15 minutes.
    site = make_site(sqlite_url(tmp_path))
    home = client_at(site, "192.0.2.10")
    assert home.post("/api/accounts", json={"name": "alice", "password": PASSWORD}).is_success
    rivals = [client_at(site, f"198.51.100.{number}") for number in range(1, 41)]
    statuses = [sign_in(rival, WRONG) for rival in rivals for _ in range(2)]
    assert 429 in statuses  # guessing from everywhere is slowed...
    assert sign_in(home, PASSWORD) == 200  # ...but alice signs in at home
    assert sign_in(client_at(site, "203.0.113.99"), PASSWORD) == 429  # a new address waits


def test_one_address_guessing_waits_longer_and_longer(tmp_path) -> None:
    site = make_site(sqlite_url(tmp_path))
    site.sign_up("alice")
    guesser = client_at(site, "198.51.100.1")
    free = site.service.config.sign_in_failures_per_address.free
    assert [sign_in(guesser, WRONG) for _ in range(free)] == [401] * free
    waits = []
    for _ in range(4):
        answer = guesser.post("/api/sessions", json={"name": "alice", "password": WRONG})
        assert answer.status_code == 429
        waits.append(int(answer.headers["Retry-After"]))
        site.clock.now += waits[-1]
        assert sign_in(guesser, WRONG) == 401  # one more guess after each wait
    assert waits == [1, 2, 4, 8]
    assert sign_in(site.client, PASSWORD) == 200  # alice, at home, never waited


def test_a_right_password_takes_its_attempt_back(tmp_path) -> None:
    site = make_site(sqlite_url(tmp_path))
    site.sign_up("alice")
    travelling = client_at(site, "203.0.113.5")
    free = site.service.config.sign_in_failures_per_address.free
    for _ in range(3 * free):  # many sign-ins, all right: never slowed
        assert sign_in(travelling, PASSWORD) == 200
        site.clock.now += 4  # (within the per-address limit of sign-ins)


def test_ipv6_addresses_of_one_network_count_as_one(tmp_path) -> None:
    # A host with an IPv6 /64 has 2^64 addresses to rotate through.
    site = make_site(sqlite_url(tmp_path))
    limit = site.service.config.sign_up_per_address.count
    statuses = [
        client_at(site, f"2001:db8:1:2::{number:x}")
        .post("/api/accounts", json={"name": f"player{number}", "password": PASSWORD})
        .status_code
        for number in range(1, limit + 2)
    ]
    assert statuses == [201] * limit + [429]
    other = client_at(site, "2001:db8:1:3::1")  # another network
    assert other.post("/api/accounts", json={"name": "elsewhere", "password": PASSWORD}).is_success
