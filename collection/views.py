from django.http import HttpResponse
def collection_page(request, **kw): return HttpResponse('')
def collection_import_page(request, **kw): return HttpResponse('')
def collection_export(request, **kw): return HttpResponse('')
def card_where_page(request, **kw): return HttpResponse('')
def deck_collection_page(request, **kw): return HttpResponse('')
def deck_built_toggle(request, **kw): return HttpResponse('')
def deck_wants_download(request, **kw): return HttpResponse('')
