app_name = "rules"

urlpatterns: list = []
