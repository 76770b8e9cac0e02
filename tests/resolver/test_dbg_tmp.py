import pytest, re
from tests.resolver.test_pages import *
def test_dbg(client, squad):
    alice, entry = squad
    client.force_login(alice)
    c = client.get(f"/calc/shooting/?from_entry={entry.pk}").content.decode()
    print(re.findall(r'<input[^>]*g\d-models[^>]*>', c))
    print(re.findall(r'<option value="\w+" selected>', c))
