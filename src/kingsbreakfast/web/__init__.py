"""The browser client: static files only (HTML, CSS, JavaScript modules), served by the server.

Nothing here is imported by Python; the package exists so the files ship as package data.
"""
