app_name = "decks"

urlpatterns: list = []
